import type { ChatModelRunResult, ThreadMessage, ThreadRuntime } from '@assistant-ui/react';

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
