import {
  createThreadRequestSchema,
  feedbackRequestSchema,
  feedbackSchema,
  maxThreadsPerReader,
  recordId,
  threadHeadRequestSchema,
  threadHeadResponseSchema,
  threadListQuerySchema,
  threadListResponseSchema,
  threadSchema,
  threadWithMessagesResponseSchema,
  updateThreadRequestSchema,
} from '@acme/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorHandler, sendApiError } from '../../api-errors.js';
import { ReaderCounts } from '../../limits/reader-counts.js';
import { registerReaderRateLimit } from '../../limits/reader-rate-limit.js';
import { bodilessResponses, errorResponses } from '../../response-schemas.js';
import { stopStaleAnswer } from '../../store/answer-progress.js';
import {
  createThreadWithinLimit,
  deleteThread,
  getThreadWithMessages,
  listThreads,
  threadNotFound,
  updateThread,
} from '../../store/conversations.js';
import { clearFeedback, setFeedback } from '../../store/messages.js';
import { setThreadHead } from '../../store/thread-head.js';
import { readerOf } from '../reader.js';
import { feedbackDto, threadDto, threadListCursor, threadPositionOf, threadWithMessagesDto } from './wire.js';

const byId = { params: z.strictObject({ id: recordId }) };
/** The answers of a route: its success's shape (a 204 has no body) and the registry's errors. */
const answers = <Success extends Record<number, z.ZodType>>(success: Success) => ({
  response: { ...success, ...errorResponses },
});
const bodiless = { response: bodilessResponses };
// A POST without a body creates an untitled chat; Fastify validates a missing body as null.
const createThreadBody = z.preprocess((body) => body ?? {}, createThreadRequestSchema);

/**
 * A conversation is read whole (up to 500 messages of 32,000 characters, 13 MB of JSON): one reader opening twenty at
 * once held 900 MB and stalled everyone else's requests for seconds (a fault review). Four at once is more than the
 * widget ever asks for.
 */
const wholeThreadReadsPerReader = 4;

/** Dev Copilot's saved conversations: each reader sees and changes only their own; another's are not found. */
export async function threadRoutes(app: FastifyInstance) {
  const { db } = app.store;
  const { running } = app.copilot;
  app.setErrorHandler(apiErrorHandler({ badRequest: 'bad_request:input', internal: 'internal:threads' }));
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const wholeThreadReads = new ReaderCounts();

  routes.get(
    '/api/threads',
    { schema: { querystring: threadListQuerySchema, ...answers({ 200: threadListResponseSchema }) } },
    async (request) => {
      const { status, limit, after } = request.query;
      const page = await listThreads(db, {
        reader: readerOf(request),
        status,
        limit,
        after: after === undefined ? undefined : threadPositionOf(after),
      });
      return { threads: page.threads.map(threadDto), nextCursor: page.next && threadListCursor(page.next) };
    },
  );

  // New chats count against limits of their own per reader, a minute and in all: each is a row kept until its reader
  // deletes it.
  await app.register(async (creating) => {
    await registerReaderRateLimit(creating, {
      scope: 'threads',
      code: 'rate_limited:threads',
      what: 'new chats',
      perMinute: app.config.threadCreationsPerMinute,
      store: app.limits.perMinuteStore,
    });
    creating
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/api/threads',
        { schema: { body: createThreadBody, ...answers({ 201: threadSchema }) } },
        async (request, reply) => {
          const thread = await createThreadWithinLimit(
            db,
            { reader: readerOf(request), title: request.body.title },
            { max: maxThreadsPerReader },
          );
          return reply.code(201).send(threadDto(thread));
        },
      );
  });

  routes.get(
    '/api/threads/:id',
    { schema: { ...byId, ...answers({ 200: threadWithMessagesResponseSchema }) } },
    async (request, reply) => {
      const reader = readerOf(request);
      const release = wholeThreadReads.take(reader, wholeThreadReadsPerReader);
      if (!release) return sendApiError(reply.header('retry-after', '1'), 'rate_limited:thread_reads');
      // Held until the thread is read and its response gone (sent, or abandoned by a reader who hung up early): what
      // it bounds is the memory of the thread being read and sent.
      let handled = false;
      let gone = false;
      const releaseOnceBoth = () => {
        if (handled && gone) release();
      };
      reply.raw.once('close', () => {
        gone = true;
        releaseOnceBoth();
      });
      try {
        const found = await getThreadWithMessages(db, { reader, threadId: request.params.id });
        if (!found) throw threadNotFound();
        return threadWithMessagesDto(found);
      } finally {
        handled = true;
        releaseOnceBoth();
      }
    },
  );

  routes.patch(
    '/api/threads/:id',
    { schema: { ...byId, body: updateThreadRequestSchema, ...answers({ 200: threadSchema }) } },
    async (request) =>
      threadDto(await updateThread(db, { reader: readerOf(request), threadId: request.params.id, ...request.body })),
  );

  /** The reader switched branch: the thread reopens on it, in any browser, until a message is added. */
  routes.put(
    '/api/threads/:id/head',
    { schema: { ...byId, body: threadHeadRequestSchema, ...answers({ 200: threadHeadResponseSchema }) } },
    async (request) => setThreadHead(db, { reader: readerOf(request), threadId: request.params.id, ...request.body }),
  );

  routes.delete('/api/threads/:id', { schema: { ...byId, ...bodiless } }, async (request, reply) => {
    // An answer still being written in it ends too: nobody can read it any more.
    running.stop(readerOf(request), request.params.id);
    await deleteThread(db, { reader: readerOf(request), threadId: request.params.id });
    return reply.code(204).send();
  });

  /**
   * The reader pressed Stop: the answer being written in the thread ends here and is stored as it stands. One that
   * no instance writes any more (its server died) is ended in the store instead, rather than left running.
   */
  routes.post('/api/threads/:id/stop', { schema: { ...byId, ...bodiless } }, async (request, reply) => {
    const reader = readerOf(request);
    const stopped =
      running.stop(reader, request.params.id) || (await stopStaleAnswer(db, { reader, threadId: request.params.id }));
    if (!stopped) return sendApiError(reply, 'not_found:answer');
    return reply.code(204).send();
  });

  routes.put(
    '/api/messages/:id/feedback',
    { schema: { ...byId, body: feedbackRequestSchema, ...answers({ 200: feedbackSchema }) } },
    async (request) =>
      feedbackDto(await setFeedback(db, { reader: readerOf(request), messageId: request.params.id, ...request.body })),
  );

  routes.delete('/api/messages/:id/feedback', { schema: { ...byId, ...bodiless } }, async (request, reply) => {
    await clearFeedback(db, { reader: readerOf(request), messageId: request.params.id });
    return reply.code(204).send();
  });
}
