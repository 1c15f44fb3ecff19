import type { ChatModelRunResult, ThreadMessage, ThreadRuntime } from '@assistant-ui/react';
import { showStored } from './conversation';
import { threadApi } from './thread-api';

type Part = ThreadMessage['content'][number] | NonNullable<ChatModelRunResult['content']>[number];

const textOf = (content: readonly Part[]) =>
  content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/**
 * Shows a stopped answer as the server kept it. The run ends the moment the reader presses Stop, but the words
 * already on their way by then (written before the Stop reached the server) are stored with the answer; without them
 * on screen, a reload would show more than the reader saw when the answer settled. The answer keeps its place, id
 * and status; nothing changes when the screen already shows all of it, or while another run writes in the thread
 * (it owns the conversation on screen until it ends; a reload shows the kept answer whole).
 */
export function showStoppedAnswer(thread: ThreadRuntime | undefined, answerId: string, kept: ChatModelRunResult) {
  if (!thread || thread.getState().isRunning || !kept.content) return;
  const shown = thread.export();
  const item = shown.messages.find(({ message }) => message.id === answerId);
  if (item?.message.role !== 'assistant' || textOf(item.message.content) === textOf(kept.content)) return;
  const custom = { ...item.message.metadata.custom, ...kept.metadata?.custom };
  const message = {
    ...item.message,
    content: kept.content,
    metadata: { ...item.message.metadata, custom },
  };
  thread.import({
    ...shown,
    messages: shown.messages.map((entry) => (entry === item ? { ...entry, message } : entry)),
  });
}

/**
 * Shows a thread as the server keeps it after a Stop that came too late: the answer had ended before the Stop reached
 * the server, so the server kept all of it (a slow network). The run ended at the Stop with part of it on screen, marked
 * "You stopped this answer."; the stored thread replaces that, as a reload would. Nothing changes while another run
 * writes in the thread (it owns the conversation on screen until it ends), when the screen changed while the thread was
 * read (a newer turn), or when the thread cannot be read.
 */
export async function showEndedAnswer(thread: ThreadRuntime | undefined, threadId: string): Promise<void> {
  // The messages on screen, by id: a question asked (or answered again) while the thread is read adds one, and then
  // the thread as read is older than the screen, so it is not shown. (The stopped answer's own status may change.)
  const shownIds = () => (thread?.getState().messages ?? []).map((message) => message.id).join(' ');
  const shownBefore = shownIds();
  const stored = await threadApi.get(threadId).catch(() => null);
  if (!stored || !thread) return;
  if (!thread.getState().isRunning && shownIds() === shownBefore) thread.import(showStored(stored));
}
