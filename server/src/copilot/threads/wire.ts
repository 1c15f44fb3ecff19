import type { FeedbackDto, MessageDto, ThreadDto } from '@acme/contract';
import type { Message, MessageFeedback, Thread, ThreadWithMessages } from '../../store/conversations.js';

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

export const threadWithMessagesDto = ({ thread, messages }: ThreadWithMessages) => ({
  thread: threadDto(thread),
  messages: messages.map(messageDto),
});
