import type { ThreadMessage } from '@assistant-ui/react';
import type { AskAiRequest } from './wire-types';

/** The server's limits (server/src/copilot/contract.ts); older turns are dropped to stay inside them. */
const maxMessages = 50;
const maxTextCharacters = 32_000;

type AskMessage = AskAiRequest['messages'][number];
type AskImage = AskMessage['attachments'][number];

const textOf = (message: ThreadMessage) =>
  message.content.flatMap((part) => (part.type === 'text' ? [{ type: 'text' as const, text: part.text }] : []));

/** An image attachment's data URL, split into the media type and the bare base64 the server wants. */
export function imageFromDataUrl(dataUrl: string, name?: string): AskImage | null {
  const match = dataUrl.match(/^data:([^;,]+);base64,(.*)$/s);
  if (!match?.[1] || match[2] === undefined) return null;
  return { type: 'image', contentType: match[1], content: match[2], ...(name ? { name } : {}) };
}

function imagesOf(message: ThreadMessage): AskImage[] {
  return (message.attachments ?? []).flatMap((attachment) =>
    (attachment.content ?? []).flatMap((part) => {
      if (part.type !== 'image') return [];
      const image = imageFromDataUrl(part.image, attachment.name);
      return image ? [image] : [];
    }),
  );
}

/**
 * The askAi body for a branch of the conversation. Only the question being asked carries its images: earlier
 * screenshots were already read for their answers, and re-sending megabytes each turn would only slow the reader down.
 */
export function toAskAiRequest(messages: readonly ThreadMessage[], page?: string, answerId?: string): AskAiRequest {
  const conversation: AskMessage[] = messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message, index, all) => ({
      role: message.role === 'user' ? 'user' : 'assistant',
      content: textOf(message),
      attachments: index === all.length - 1 ? imagesOf(message) : [],
    }));
  let kept = conversation.slice(-maxMessages);
  const characters = (list: AskMessage[]) =>
    list.flatMap((entry) => entry.content).reduce((total, part) => total + part.text.length, 0);
  while (kept.length > 1 && characters(kept) > maxTextCharacters) kept = kept.slice(1);
  while (kept.length > 1 && kept[0]?.role !== 'user') kept = kept.slice(1);
  return { messages: kept, ...(page ? { page } : {}), ...(answerId ? { answerId } : {}) };
}
