import type { ExportedMessageRepositoryItem, ThreadHistoryAdapter } from '@assistant-ui/react';
import { toMessageRepository, toStoredMessage } from './stored-messages';
import { threadApi } from './thread-api';
import { trackUnsaved } from './unsaved-changes';

export type ThreadChoice = { kind: 'latest' } | { kind: 'thread'; id: string } | { kind: 'new' };

/** Told which stored thread this conversation is, once known: the latest one loaded, or one just created. */
export type OnThreadKnown = (threadId: string, how: 'loaded' | 'created') => void;

/**
 * Keeps one conversation in the server's thread API. The thread is created on the first message, so opening the
 * assistant never leaves empty threads behind. Writes run one after another: a reply's parent must exist first.
 */
export class ServerThreadHistory implements ThreadHistoryAdapter {
  private threadId: string | null;
  private writes: Promise<unknown> = Promise.resolve();
  private readonly saveProblemListeners = new Set<(message: string) => void>();
  private markLoaded: () => void = () => {};
  /** Settles once the stored conversation is in the runtime; a question sent earlier would be overwritten. */
  readonly loaded = new Promise<void>((resolve) => {
    this.markLoaded = resolve;
  });

  constructor(
    private readonly choice: ThreadChoice,
    private readonly onThreadKnown?: OnThreadKnown,
  ) {
    this.threadId = choice.kind === 'thread' ? choice.id : null;
  }

  async load() {
    try {
      return await this.loadStored();
    } finally {
      // The runtime imports what load() returns right after it resolves; let that happen first.
      setTimeout(this.markLoaded, 0);
    }
  }

  private async loadStored() {
    if (this.choice.kind === 'latest') {
      const [latest] = await threadApi.list('regular');
      this.threadId = latest?.id ?? null;
      if (this.threadId) this.onThreadKnown?.(this.threadId, 'loaded');
    }
    if (!this.threadId) return { messages: [] };
    const { messages } = await threadApi.get(this.threadId);
    return toMessageRepository(messages);
  }

  append({ parentId, message }: ExportedMessageRepositoryItem): Promise<void> {
    const write = this.writes.then(async () => {
      const created = this.threadId ? null : await threadApi.create();
      if (created) this.threadId = created.id;
      await threadApi.appendMessage(this.threadId as string, toStoredMessage(parentId, message));
      // Announced after its first message, which gives the thread its title.
      if (created) this.onThreadKnown?.(created.id, 'created');
    });
    this.writes = write.catch((error: unknown) => this.reportSaveProblem(error));
    return trackUnsaved(write);
  }

  /** Calls `listener` with a reader-facing message whenever a message or rating could not be saved. */
  onSaveProblem(listener: (message: string) => void): () => void {
    this.saveProblemListeners.add(listener);
    return () => this.saveProblemListeners.delete(listener);
  }

  reportSaveProblem(error: unknown) {
    console.error('Dev Copilot could not save the conversation', error);
    const reason = error instanceof Error ? error.message : 'the server did not answer';
    for (const listener of this.saveProblemListeners) listener(reason);
  }

  /** Runs after every pending write, e.g. feedback on a message that is still being saved. */
  afterWrites<T>(task: () => Promise<T>): Promise<T> {
    return trackUnsaved(this.writes.then(task));
  }
}
