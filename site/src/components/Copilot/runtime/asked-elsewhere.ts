import type { MessageDto, ThreadWithMessagesResponse } from '@acme/contract';
import type {
  ChatModelAdapter,
  ChatModelRunOptions,
  ExportedMessageRepository,
  ThreadMessage,
  ThreadRuntime,
} from '@assistant-ui/react';
import { noteRead, readVersionOf, showStored, storedIdOf } from './conversation';
import { fromStoredMessage } from './stored-messages';
import { threadApi } from './thread-api';

/**
 * A first, cheap look: the list (most recently active first, every thread's `updatedAt`) says the thread is as this
 * page last read it. A thread asked in since is at the top of it; one not on the first page is read whole.
 */
async function unchangedSinceRead(threadId: string): Promise<boolean> {
  const readVersion = readVersionOf(threadId);
  if (readVersion === undefined) return false;
  const { threads } = await threadApi.list();
  return threads.some((thread) => thread.id === threadId && thread.updatedAt === readVersion);
}

/**
 * The thread as stored, when it holds messages `shown` (what this page shows of it, every branch) lacks: they were
 * asked in another tab, or on another device, since this page read it. Null when nothing was added elsewhere.
 */
export async function askedElsewhere(
  threadId: string,
  shown: ExportedMessageRepository,
): Promise<ThreadWithMessagesResponse | null> {
  if (await unchangedSinceRead(threadId)) return null;
  const stored = await threadApi.get(threadId);
  const known = new Set(shown.messages.map(({ message }) => storedIdOf(message.id)));
  if (stored.messages.some((message) => !known.has(message.id))) return stored;
  noteRead(stored.thread);
  return null;
}

/** The stored branch that ends with the newest answer (the one a reload shows), oldest first; empty without one. */
function newestBranch(messages: readonly MessageDto[]): MessageDto[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  let current = [...messages].reverse().find((message) => message.role === 'assistant');
  const branch: MessageDto[] = [];
  while (current && branch.length < messages.length) {
    branch.unshift(current);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return branch;
}

/**
 * For a question sent at the end of the conversation on screen, after another tab asked in it: the conversation as
 * stored, with the question (and the answer the runtime has begun for it) after its newest answer. Returns the branch
 * the question now ends; null when it stays where it was: a Refresh or an edit (the reader chose its place), a
 * first question, or a conversation nobody else asked in.
 */
async function catchUp(
  { messages, unstable_getMessage }: ChatModelRunOptions,
  threadId: string | undefined,
  thread: ThreadRuntime | undefined,
): Promise<ThreadMessage[] | null> {
  const question = messages.at(-1);
  if (!threadId || !thread || question?.role !== 'user') return null;
  const shown = thread.export();
  const parentId = shown.messages.find(({ message }) => message.id === question.id)?.parentId;
  const siblings = shown.messages.filter((item) => item.parentId === parentId).length;
  if (storedIdOf(question.id) || !parentId || siblings > 1) return null;
  const stored = await askedElsewhere(threadId, shown);
  const branch = stored ? newestBranch(stored.messages) : [];
  const newest = branch.at(-1);
  if (!stored || !newest) return null;
  const answer = unstable_getMessage();
  // The answer keeps its place (the same object): the runtime goes on writing into it.
  thread.import({
    headId: answer.id,
    messages: [
      ...showStored(stored).messages,
      { parentId: newest.id, message: question },
      { parentId: question.id, message: answer },
    ],
  });
  return [...branch.map(fromStoredMessage), question];
}

/**
 * The model, after a look at what other tabs asked: a question sent from a tab left open while the conversation went
 * on elsewhere continues its newest answer, and the tab shows that conversation, instead of forking it silently from
 * the answer it last saw. If the look fails, the question is asked where it was.
 */
export function followingOtherTabs(
  model: ChatModelAdapter,
  threadId: () => string | undefined,
  thread: () => ThreadRuntime | undefined,
): ChatModelAdapter {
  return {
    async *run(options) {
      const messages = (await catchUp(options, threadId(), thread()).catch(() => null)) ?? options.messages;
      const answers = model.run({ ...options, messages });
      if (Symbol.asyncIterator in answers) yield* answers;
      else yield await answers;
    },
  };
}
