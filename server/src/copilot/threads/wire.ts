import type { FeedbackDto, MessageDto, ThreadDto } from '@acme/contract';
import type {
  Message,
  MessageFeedback,
  Thread,
  ThreadPosition,
  ThreadWithMessages,
} from '../../store/conversations.js';

/** The stored rows as the contract sends them: the same fields, times as ISO strings. */

export const threadDto = (thread: Thread): ThreadDto => ({
  id: thread.id,
  title: thread.title,
  status: thread.status,
  createdAt: thread.createdAt.toISOString(),
  updatedAt: thread.updatedAt.toISOString(),
});

export const feedbackDto = (feedback: MessageFeedback): FeedbackDto => ({
  rating: feedback.rating,
  comment: feedback.comment,
  updatedAt: feedback.updatedAt.toISOString(),
});

export const messageDto = (message: Message): MessageDto => ({
  id: message.id,
  threadId: message.threadId,
  parentId: message.parentId,
  role: message.role,
  content: message.content,
  attachments: message.attachments,
  sources: message.sources,
  status: message.status,
  confidence: message.confidence,
  createdAt: message.createdAt.toISOString(),
  feedback: message.feedback && feedbackDto(message.feedback),
});

export const threadWithMessagesDto = ({ thread, messages, headId }: ThreadWithMessages) => ({
  thread: threadDto(thread),
  messages: messages.map(messageDto),
  headId,
});

/** A page's `nextCursor` (the contract's `threadListCursorSchema`): the position's microseconds and id. */
export const threadListCursor = (position: ThreadPosition): string => `${position.activeAtMicros}_${position.id}`;

/** The position a cursor the contract accepted names (its microseconds are digits, so the first `_` ends them). */
export function threadPositionOf(cursor: string): ThreadPosition {
  const split = cursor.indexOf('_');
  return { activeAtMicros: cursor.slice(0, split), id: cursor.slice(split + 1) };
}
