import type { ChatModelRunResult, ThreadMessage, ThreadRuntime } from '@assistant-ui/react';
import { toMessageRepository } from './stored-messages';
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
 * Shows an answer the reader stopped as the server kept it whole: the answer had ended before the Stop reached the
 * server (a slow network), so a reload shows all of it, complete. Only that answer changes, in place, and only when
 * the server holds it complete: a question the server never received, or any other message on screen, stays as it is,
 * and nothing changes while another run writes in the thread or when the thread cannot be read.
 */
export async function showEndedAnswer(
  thread: ThreadRuntime | undefined,
  ended: { threadId: string; answerId: string; storedAnswerId: string },
): Promise<void> {
  const stored = await threadApi.get(ended.threadId).catch(() => null);
  const kept = stored
    ? toMessageRepository(stored.messages).messages.find(({ message }) => message.id === ended.storedAnswerId)?.message
    : undefined;
  if (kept?.role !== 'assistant' || kept.status?.type !== 'complete' || !thread || thread.getState().isRunning) return;
  const shown = thread.export();
  const item = shown.messages.find(({ message }) => message.id === ended.answerId);
  if (item?.message.role !== 'assistant') return;
  const custom = { ...item.message.metadata.custom, ...kept.metadata.custom };
  const message: ThreadMessage = {
    ...item.message,
    content: kept.content,
    status: kept.status,
    metadata: { ...item.message.metadata, custom },
  };
  thread.import({
    ...shown,
    messages: shown.messages.map((entry) => (entry === item ? { ...entry, message } : entry)),
  });
}
