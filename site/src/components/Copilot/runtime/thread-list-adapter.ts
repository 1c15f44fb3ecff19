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

/** Tells a new thread its title once its first question is stored (`undefined`: it was not, and will not be). */
export function questionStored(threadId: string, title: string | undefined) {
  firstQuestions.get(threadId)?.settle(title);
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
  /** Only a thread created on this page is titled here (assistant-ui asks for no other): it keeps the server's title. */
  async generateTitle(remoteId) {
    const title = await firstQuestions.get(remoteId)?.title;
    return createAssistantStream((controller) => {
      if (title) controller.appendText(title);
    });
  },
};
