import type { ThreadDto } from '@acme/contract';
import type { RemoteThreadListAdapter } from '@assistant-ui/react';
import { createAssistantStream } from 'assistant-stream';
import { reportProblem } from './problems';
import { threadApi } from './thread-api';

type RemoteThreadMetadata = Awaited<ReturnType<RemoteThreadListAdapter['fetch']>>;

const metadataOf = (thread: ThreadDto): RemoteThreadMetadata => ({
  status: thread.status,
  remoteId: thread.id,
  title: thread.title,
  lastMessageAt: new Date(thread.updatedAt),
});

/** Settles when a thread's first question is stored, which names the thread after it (see `questionStored`). */
const firstQuestions = new Map<string, Promise<void>>();

/** Tells the title of a new thread to wait until its first question is stored: the server names it then. */
export function questionStored(threadId: string, stored: Promise<void>) {
  if (!firstQuestions.has(threadId)) firstQuestions.set(threadId, stored);
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
  async list() {
    const [regular, archived] = await Promise.all([threadApi.list('regular'), threadApi.list('archived')]);
    return { threads: [...regular, ...archived].map(metadataOf) };
  },
  async initialize() {
    const thread = await threadApi.create();
    return { remoteId: thread.id };
  },
  async fetch(remoteId) {
    return metadataOf((await threadApi.get(remoteId)).thread);
  },
  rename: (remoteId, title) => reported(threadApi.update(remoteId, { title })),
  archive: (remoteId) => reported(threadApi.update(remoteId, { status: 'archived' })),
  unarchive: (remoteId) => reported(threadApi.update(remoteId, { status: 'regular' })),
  delete: (remoteId) => reported(threadApi.remove(remoteId)),
  async generateTitle(remoteId) {
    await firstQuestions.get(remoteId)?.catch(() => {});
    const { thread } = await threadApi.get(remoteId);
    return createAssistantStream((controller) => controller.appendText(thread.title));
  },
};
