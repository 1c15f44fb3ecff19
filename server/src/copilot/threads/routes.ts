import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendApiError, sendRequestProblem } from '../../api-errors.js';
import { requireAllowedViewer } from '../../auth/guards.js';
import {
  appendMessage,
  ConversationError,
  type ConversationErrorCode,
  clearFeedback,
  createThread,
  deleteThread,
  getThreadWithMessages,
  listThreads,
  setFeedback,
  threadNotFound,
  updateThread,
} from '../../store/conversations.js';
import type { Database } from '../../store/database.js';
import { describeIssues } from '../contract.js';
import {
  appendMessageRequestSchema,
  createThreadRequestSchema,
  feedbackRequestSchema,
  threadListQuerySchema,
  updateThreadRequestSchema,
} from './contract.js';

export type ThreadRoutesOptions = { db: Database; publicOrigin: string };

type WithId = { Params: { id: string } };

const statusOf: Record<ConversationErrorCode, number> = {
  'not_found:thread': 404,
  'not_found:message': 404,
  'conflict:thread_status': 409,
  'conflict:message_id': 409,
  'bad_request:parent_id': 400,
  'bad_request:feedback_role': 400,
};

/** The signed-in owner; the onRequest hook has already turned away everyone else. */
function ownerEmailOf(request: FastifyRequest): string {
  if (request.viewer.state !== 'signed-in') throw new Error('Thread route reached without a signed-in viewer');
  return request.viewer.session.email.toLowerCase();
}

/** Dev Copilot's saved conversations: each reader sees and changes only their own. Expects `request.viewer`. */
export async function threadRoutes(app: FastifyInstance, { db, publicOrigin }: ThreadRoutesOptions) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.addHook('onRequest', requireAllowedViewer({ publicOrigin, feature: 'Dev Copilot' }));

  app.setErrorHandler((error: FastifyError | ConversationError | z.ZodError, request, reply) => {
    if (error instanceof ConversationError) return sendApiError(reply, statusOf[error.code], error.code, error.message);
    if (error instanceof z.ZodError) return sendApiError(reply, 400, 'bad_request:input', describeIssues(error));
    if (sendRequestProblem(reply, error, 'bad_request:input')) return reply;
    request.log.error({ err: error }, 'thread request failed');
    return sendApiError(reply, 500, 'internal:threads', 'Your chats could not be read or saved; try again.');
  });

  app.get('/api/threads', async (request) => {
    const { status } = threadListQuerySchema.parse(request.query);
    return { threads: await listThreads(db, { ownerEmail: ownerEmailOf(request), status }) };
  });

  app.post('/api/threads', async (request, reply) => {
    const { title } = createThreadRequestSchema.parse(request.body ?? {});
    return reply.code(201).send(await createThread(db, { ownerEmail: ownerEmailOf(request), title }));
  });

  app.get<WithId>('/api/threads/:id', async (request) => {
    const found = await getThreadWithMessages(db, { ownerEmail: ownerEmailOf(request), threadId: request.params.id });
    if (!found) throw threadNotFound();
    return found;
  });

  app.patch<WithId>('/api/threads/:id', async (request) => {
    const update = updateThreadRequestSchema.parse(request.body);
    return updateThread(db, { ownerEmail: ownerEmailOf(request), threadId: request.params.id, ...update });
  });

  app.delete<WithId>('/api/threads/:id', async (request, reply) => {
    await deleteThread(db, { ownerEmail: ownerEmailOf(request), threadId: request.params.id });
    return reply.code(204).send();
  });

  app.post<WithId>('/api/threads/:id/messages', async (request, reply) => {
    const message = appendMessageRequestSchema.parse(request.body);
    const saved = await appendMessage(db, { ownerEmail: ownerEmailOf(request), threadId: request.params.id, message });
    return reply.code(201).send(saved);
  });

  app.put<WithId>('/api/messages/:id/feedback', async (request) => {
    const { rating, comment } = feedbackRequestSchema.parse(request.body);
    return setFeedback(db, { ownerEmail: ownerEmailOf(request), messageId: request.params.id, rating, comment });
  });

  app.delete<WithId>('/api/messages/:id/feedback', async (request, reply) => {
    await clearFeedback(db, { ownerEmail: ownerEmailOf(request), messageId: request.params.id });
    return reply.code(204).send();
  });
}
