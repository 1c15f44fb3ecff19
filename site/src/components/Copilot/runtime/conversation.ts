import type { ThreadDto, ThreadWithMessagesResponse } from '@acme/contract';
import type { ExportedMessageRepository, ThreadHistoryAdapter } from '@assistant-ui/react';
import { markHistoryLoaded } from './loaded-histories';
import { toMessageRepository } from './stored-messages';
import { threadApi } from './thread-api';

/** The thread list item a conversation belongs to, read when needed (it changes once the thread is created). */
export type ThreadHandle = {
  remoteId: () => string | undefined;
  initialize: () => Promise<{ remoteId: string }>;
};

/**
 * The server's id of each message the runtime knows, kept for the page's life and shared by every conversation
 * object. The runtime hook may make its conversation again on a later render while the stored messages were loaded
 * through an earlier one: with a map of its own, the new one knew none of them, and the next question after a reload
 * was sent as a new first question (a branch of its own) instead of following the last answer. The runtime's own ids
 * are random, and stored messages keep the server's, so one map serves every thread.
 */
const serverIds = new Map<string, string>();

/** Each thread's `updatedAt` as this page last read it whole: a later one says it changed since. */
const readVersions = new Map<string, string>();

/** The `updatedAt` of a thread when this page last read it whole; undefined if it never did. */
export const readVersionOf = (threadId: string) => readVersions.get(threadId);

/** Notes that this page has read the thread whole, as it is now. */
export function noteRead(thread: ThreadDto): void {
  readVersions.set(thread.id, thread.updatedAt);
}

/**
 * Notes this page's own turn: a thread it had read whole just before the turn (`before`) holds nothing since but
 * what the page asked and was answered, so it is known whole as of `after`, without being read again.
 */
export function noteOwnTurn(threadId: string, version: { before: string; after: string } | undefined): void {
  if (version && readVersions.get(threadId) === version.before) readVersions.set(threadId, version.after);
}

/** The server's id of a message the runtime knows, or undefined when the server never stored it. */
export const storedIdOf = (messageId: string) => serverIds.get(messageId);

/** A thread as the server keeps it, as the runtime shows it: its messages keep the server's ids, known from now on. */
export function showStored({ thread, messages, headId }: ThreadWithMessagesResponse): ExportedMessageRepository {
  for (const message of messages) serverIds.set(message.id, message.id);
  noteRead(thread);
  return toMessageRepository(messages, headId);
}

/**
 * One conversation as the server keeps it. The runtime names messages it creates itself; the server names them too
 * when it stores them (the `turn` part of an answer's stream), and every later call uses the server's name.
 */
export class ServerConversation {
  private readonly serverIds = serverIds;

  constructor(private readonly thread: ThreadHandle) {}

  /** The server's thread id, creating the thread on the server the first time something is asked. */
  async threadId(): Promise<string> {
    return this.thread.remoteId() ?? (await this.thread.initialize()).remoteId;
  }

  /** The server's id of a message the runtime knows, or undefined when the server never stored it. */
  serverIdOf(messageId: string): string | undefined {
    return storedIdOf(messageId);
  }

  remember(messageId: string, serverId: string) {
    this.serverIds.set(messageId, serverId);
  }

  /** Loads the stored conversation; writing is the server's part of a turn, so nothing is appended from here. */
  readonly history: ThreadHistoryAdapter = {
    load: async () => {
      const threadId = this.thread.remoteId();
      if (!threadId) return { messages: [] };
      const stored = await threadApi.get(threadId);
      // Said once the runtime has taken the messages in (its promise callbacks run before the next task).
      setTimeout(() => markHistoryLoaded(threadId), 0);
      return showStored(stored);
    },
    append: async () => {},
  };
}
