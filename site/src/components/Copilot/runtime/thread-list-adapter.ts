import type { ThreadDto } from '@acme/contract';
import type { RemoteThreadListAdapter } from '@assistant-ui/react';
import { createAssistantStream } from 'assistant-stream';
import { noteRead } from './conversation';
import { reportProblem } from './problems';
import { threadApi } from './thread-api';
import { threadCreation } from './thread-creation';

type RemoteThreadMetadata = Awaited<ReturnType<RemoteThreadListAdapter['fetch']>>;

const metadataOf = (thread: ThreadDto): RemoteThreadMetadata => ({
  status: thread.status,
  remoteId: thread.id,
  title: thread.title,
  lastMessageAt: new Date(thread.updatedAt),
});

/**
 * Per new thread, its title once its first question is stored (the server names the thread after it and says so in
 * the turn's first part), or the title it was created with when its run ended without storing it. Made when the
 * thread is created, so a title asked for before the first run starts still waits.
 */
const firstQuestions = new Map<string, { title: Promise<string>; settle: (title: string | undefined) => void }>();

function firstQuestionOf(threadId: string, createdTitle: string) {
  let settle: (title: string | undefined) => void = () => {};
  const title = new Promise<string>((resolve) => (settle = (stored) => resolve(stored ?? createdTitle)));
  firstQuestions.set(threadId, { title, settle });
}

/**
 * Each thread's title as the server said it with a turn: an edit of the first question renames the thread there
 * (unless the reader chose the title), and the list, which only knows the title it was given, takes it from here.
 */
const titlesFromTurns = new Map<string, string>();
const titleListeners = new Set<(threadId: string, title: string) => void>();

/** Tells a thread its title once a question is stored (`undefined`: it was not, and will not be). */
export function questionStored(threadId: string, title: string | undefined) {
  firstQuestions.get(threadId)?.settle(title);
  if (title !== undefined) titleFromServer(threadId, title);
}

/** Tells the list a thread's title as the server gives it (after a turn, or a switch to a branch with its own). */
export function titleFromServer(threadId: string, title: string) {
  titlesFromTurns.set(threadId, title);
  for (const listener of titleListeners) listener(threadId, title);
}

/** Calls `listener` with each title a turn says its thread has; returns the unsubscribe. */
export function onTitleFromTurn(listener: (threadId: string, title: string) => void): () => void {
  titleListeners.add(listener);
  return () => titleListeners.delete(listener);
}

/** A change the list shows at once; if the server refuses it, the list puts it back and the reader is told why. */
const reported = (change: Promise<unknown>) =>
  change.then(
    () => undefined,
    (error: unknown) => {
      reportProblem(error);
      throw error;
    },
  );

/**
 * The reader's threads for assistant-ui's remote thread list: the server owns every thread's metadata (spec section
 * 4: only a regular thread can be archived, only an archived one unarchived; its title is its first question).
 */
export const threadListAdapter: RemoteThreadListAdapter = {
  // A page at a time, most recently active first: the list shows the first and asks for the next when the reader
  // wants older chats. Regular and archived come in one list, sorted apart by their status.
  async list(options) {
    const page = await threadApi.list(options?.after);
    return { threads: page.threads.map(metadataOf), nextCursor: page.nextCursor ?? undefined };
  },
  // A failure is not reported like the changes below: the question it was for goes back to the composer, and the
  // composer says why (threadCreation).
  initialize: (threadId) =>
    threadCreation.track(threadId, async () => {
      const thread = await threadApi.create();
      firstQuestionOf(thread.id, thread.title);
      // Empty, and known whole: a turn in it need not read it again (noteOwnTurn).
      noteRead(thread);
      return { remoteId: thread.id };
    }),
  async fetch(remoteId) {
    return metadataOf((await threadApi.get(remoteId)).thread);
  },
  rename: (remoteId, title) => reported(threadApi.update(remoteId, { title })),
  archive: (remoteId) => reported(threadApi.update(remoteId, { status: 'archived' })),
  unarchive: (remoteId) => reported(threadApi.update(remoteId, { status: 'regular' })),
  delete: (remoteId) => reported(threadApi.remove(remoteId)),
  /**
   * The server's title: a thread created on this page waits for its first question's, and one retitled by an edit of
   * its first question (useConversationRuntime asks then) takes the title the turn said.
   */
  async generateTitle(remoteId) {
    const first = await firstQuestions.get(remoteId)?.title;
    const title = titlesFromTurns.get(remoteId) ?? first;
    return createAssistantStream((controller) => {
      if (title) controller.appendText(title);
    });
  },
};
