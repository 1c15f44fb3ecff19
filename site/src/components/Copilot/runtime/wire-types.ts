/**
 * The server's wire contracts, as types only: the zod schemas stay on the server (spec'd once there) and cost the
 * browser bundle nothing.
 */
export type { AskAiRequest, AskAiSource } from '../../../../../server/src/copilot/contract';
export type { FeedbackDto, MessageDto, ThreadDto } from '../../../../../server/src/copilot/threads/contract';

/** Body of POST /api/threads/:id/messages. */
export type AppendMessageBody = {
  id: string;
  parentId: string | null;
  role: 'user' | 'assistant';
  content: Array<{ type: 'text'; text: string }>;
  attachments?: Array<{ name: string; contentType: string; size: number }>;
  sources?: Array<{ title: string; url: string }>;
  status?: 'complete' | 'incomplete' | 'error';
};
