import type { MessageDto } from '@acme/contract';
import type { ExportedMessageRepository, ThreadMessage } from '@assistant-ui/react';
import { searchPart, sourceParts } from './turn-message';

const statusFromStored = {
  // Being written by the server for an earlier page of this reader: shown as it grows (see FollowStoredAnswer).
  running: { type: 'incomplete', reason: 'other' },
  complete: { type: 'complete', reason: 'unknown' },
  incomplete: { type: 'incomplete', reason: 'cancelled' },
  error: { type: 'incomplete', reason: 'error', error: 'This answer failed before it was finished.' },
} as const;

/** A stored message as the runtime knows it; images come back as metadata only (never stored). */
export function fromStoredMessage(stored: MessageDto): ThreadMessage {
  const createdAt = new Date(stored.createdAt);
  const text = stored.content.flatMap((part) =>
    part.type === 'text' ? [{ type: 'text' as const, text: part.text }] : [],
  );
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
    // The model's searches first, as they were streamed, then the text and its sources.
    content: [
      ...stored.content.flatMap((part) => (part.type === 'tool-call' ? [searchPart(part)] : [])),
      ...text,
      ...sourceParts(stored.sources),
    ],
    status: statusFromStored[stored.status],
    metadata: {
      unstable_state: null,
      unstable_annotations: [],
      unstable_data: [],
      steps: [],
      // The reason given with a Bad response, so the widget does not ask for it again.
      custom: {
        ...(stored.feedback?.comment ? { feedbackComment: stored.feedback.comment } : {}),
        ...(stored.status === 'running' ? { stillWriting: true } : {}),
        ...(stored.confidence ? { confidence: stored.confidence } : {}),
      },
      ...(stored.feedback ? { submittedFeedback: { type: stored.feedback.rating } } : {}),
    },
  };
}

/**
 * A stored thread as a message tree, so a reload shows the branch last used: the one the reader last switched to
 * (`headId`), or else the newest message's.
 */
export function toMessageRepository(
  stored: readonly MessageDto[],
  headId: string | null = null,
): ExportedMessageRepository {
  return {
    headId: lastOfBranch(stored, headId) ?? stored.at(-1)?.id ?? null,
    messages: stored.map((message) => ({ parentId: message.parentId, message: fromStoredMessage(message) })),
  };
}

/**
 * The last message of the branch through `headId`, following the newest reply at each step: a head stored just before
 * a question was asked under it still shows that question. Undefined when no message has that id.
 */
function lastOfBranch(stored: readonly MessageDto[], headId: string | null): string | undefined {
  // Stored oldest first: a later reply to the same message replaces an earlier one. A damaged chain cannot loop.
  const newestReply = new Map(stored.map((message) => [message.parentId, message]));
  let head = stored.find((message) => message.id === headId);
  for (let step = 0; head && step < stored.length; step += 1) {
    const reply = newestReply.get(head.id);
    if (!reply) return head.id;
    head = reply;
  }
  return undefined;
}
