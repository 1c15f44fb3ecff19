import { errorDetails, turnRequestSchema } from '@acme/contract';
import { pipeUIMessageStreamToResponse } from 'ai';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorHandler } from '../../api-errors.js';
import { questionBodyLimit } from '../copilot.js';
import { limitQuestionBodies } from '../question-bodies.js';
import { readerOf } from '../reader.js';
import { startTurn } from './turn-service.js';

/** POST /api/turns: one turn of a stored conversation, its answer streamed as an AI SDK UI message stream. */
export async function turnRoutes(app: FastifyInstance) {
  const { copilot, store } = app;
  app.setErrorHandler(
    apiErrorHandler({
      badRequest: 'bad_request:ask',
      internal: 'internal:ask',
      tooLarge: errorDetails.requestBody.questionTooLarge,
    }),
  );
  const routes = app.withTypeProvider<ZodTypeProvider>();
  limitQuestionBodies(app, copilot.running);

  routes.post(
    '/api/turns',
    { schema: { body: turnRequestSchema }, bodyLimit: questionBodyLimit },
    async (request, reply) => {
      const stream = await startTurn({ db: store.db, copilot, log: request.log }, readerOf(request), request.body);
      // The headers set so far (security headers among them) go out with the stream.
      const headers = Object.fromEntries(
        Object.entries(reply.getHeaders()).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, String(value)]],
        ),
      );
      reply.hijack();
      pipeUIMessageStreamToResponse({ response: reply.raw, stream, headers });
    },
  );
}
