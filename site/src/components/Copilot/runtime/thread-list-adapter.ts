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

/**
 * Per new thread, settles once its first question is stored (the server names the thread after it) or its run ended
 * without storing it. Made when the thread is created, so a title asked for before the first run starts still waits.
 */
const firstQuestions = new Map<string, { stored: Promise<void>; settle: () => void }>();

function firstQuestionOf(threadId: string) {
  let entry = firstQuestions.get(threadId);
  if (!entry) {
    let settle = () => {};
    const stored = new Promise<void>((resolve) => (settle = resolve));
    entry = { stored, settle };
    firstQuestions.set(threadId, entry);
  }
  return entry;
}

/** Tells the title of a new thread that its first question is stored, or will not be. */
export function questionStored(threadId: string) {
  firstQuestions.get(threadId)?.settle();
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
    firstQuestionOf(thread.id);
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
    await firstQuestions.get(remoteId)?.stored;
    const { thread } = await threadApi.get(remoteId);
    return createAssistantStream((controller) => controller.appendText(thread.title));
  },
};
