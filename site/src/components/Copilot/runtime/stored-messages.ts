import type { ExportedMessageRepository, ThreadMessage } from '@assistant-ui/react';
import { sourceParts } from './ask-model-adapter';
import type { AppendMessageBody, MessageDto } from './wire-types';

type StoredStatus = NonNullable<AppendMessageBody['status']>;

function storedStatusOf(message: ThreadMessage): StoredStatus {
  if (message.role !== 'assistant' || message.status?.type === 'complete') return 'complete';
  return message.status?.type === 'incomplete' && message.status.reason === 'error' ? 'error' : 'incomplete';
}

/** What the thread API keeps of a message: its text, sources, status, and only the metadata of its images. */
export function toStoredMessage(parentId: string | null, message: ThreadMessage): AppendMessageBody {
  const sources = message.content.flatMap((part) =>
    part.type === 'source' && part.url ? [{ title: part.title ?? part.url, url: part.url }] : [],
  );
  const attachments = (message.attachments ?? []).map((attachment) => ({
    name: attachment.name,
    contentType: attachment.contentType ?? 'application/octet-stream',
    size: attachment.file?.size ?? decodedBytes(attachment.content),
  }));
  return {
    id: message.id,
    parentId,
    role: message.role === 'assistant' ? 'assistant' : 'user',
    content: message.content.flatMap((part) => (part.type === 'text' ? [{ type: 'text', text: part.text }] : [])),
    ...(attachments.length ? { attachments } : {}),
    ...(sources.length ? { sources } : {}),
    status: storedStatusOf(message),
  };
}

/** The decoded size of an attachment's data-URL image, for when the File itself is gone. */
function decodedBytes(content: NonNullable<ThreadMessage['attachments']>[number]['content']): number {
  const image = content?.find((part) => part.type === 'image');
  if (image?.type !== 'image') return 0;
  const base64 = image.image.slice(image.image.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

const statusFromStored = {
  complete: { type: 'complete', reason: 'unknown' },
  incomplete: { type: 'incomplete', reason: 'cancelled' },
  error: { type: 'incomplete', reason: 'error', error: 'This answer failed before it was finished.' },
} as const;

/** A stored message as the runtime knows it; images come back as metadata only (never stored). */
export function fromStoredMessage(stored: MessageDto): ThreadMessage {
  const createdAt = new Date(stored.createdAt);
  const text = stored.content.map((part) => ({ type: 'text' as const, text: part.text }));
  if (stored.role === 'user') {
    return {
      id: stored.id,
      role: 'user',
      createdAt,
      content: text,
      attachments: stored.attachments.map((attachment, index) => ({
        id: `${stored.id}-${index}`,
        type: 'image',
        name: attachment.name,
        contentType: attachment.contentType,
        status: { type: 'complete' },
        content: [],
      })),
      metadata: { custom: {} },
    };
  }
  return {
    id: stored.id,
    role: 'assistant',
    createdAt,
    content: [...text, ...sourceParts(stored.sources)],
    status: statusFromStored[stored.status],
    metadata: {
      unstable_state: null,
      unstable_annotations: [],
      unstable_data: [],
      steps: [],
      // The reason given with a Bad response, so the widget does not ask for it again.
      custom: stored.feedback?.comment ? { feedbackComment: stored.feedback.comment } : {},
      ...(stored.feedback ? { submittedFeedback: { type: stored.feedback.rating } } : {}),
    },
  };
}

/** A stored thread as a message tree; the newest message is the head, so a reload shows the branch last used. */
export function toMessageRepository(stored: readonly MessageDto[]): ExportedMessageRepository {
  return {
    headId: stored.at(-1)?.id ?? null,
    messages: stored.map((message) => ({ parentId: message.parentId, message: fromStoredMessage(message) })),
  };
}
