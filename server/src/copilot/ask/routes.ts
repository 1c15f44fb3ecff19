import { randomUUID } from 'node:crypto';
import {
  ApiError,
  type AskAiRequest,
  type AskAiResponse,
  askAiRequestSchema,
  askAiResponseSchema,
  errorDetails,
} from '@acme/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorHandler, sendApiError } from '../../api-errors.js';
import { errorResponses } from '../../response-schemas.js';
import type { Conversation } from '../answer/asked-question.js';
import { questionBodyLimit } from '../copilot.js';
import { checkImages } from '../images.js';
import { classifyModelError, reasonOf } from '../model/model-errors.js';
import { limitQuestionBodies } from '../question-bodies.js';
import { readerOf } from '../reader.js';
import { StoppedByShutdown } from '../turn/running-answers.js';

/** A question a shutdown stopped may be asked again at once: the balancer sends it to another instance. */
const askAgainAfterSeconds = 1;

/** The spec's messages as Dev Copilot reads them: each message's text parts joined into its text, once, here. */
const conversationOfAsk = ({ messages, page }: AskAiRequest): Conversation => ({
  messages: messages.map(({ role, content, attachments }) => ({
    role,
    text: content.map((part) => part.text).join('\n'),
    attachments,
  })),
  page,
});

/** POST /api/askAi, spec section 7's call: stateless, for scripts; the whole answer at once as `{data}`. */
export async function askRoute(app: FastifyInstance) {
  const { copilot } = app;
  app.setErrorHandler(
    apiErrorHandler({
      badRequest: 'bad_request:ask',
      internal: 'internal:ask',
      tooLarge: errorDetails.requestBody.questionTooLarge,
    }),
  );
  limitQuestionBodies(app, copilot.running);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/askAi',
    {
      schema: { body: askAiRequestSchema, response: { 200: askAiResponseSchema, ...errorResponses } },
      bodyLimit: questionBodyLimit,
    },
    async (request, reply) => {
      const asked = performance.now();
      const { messages } = request.body;
      // Only the question's own images are read; an earlier message's are named to the model, yet checked the same
      // way, so that what a caller sends is images or a 400, never anything at all.
      for (const [index, message] of messages.slice(0, -1).entries()) {
        checkImages(message.attachments, `messages.${index}.attachments`);
      }
      const images = checkImages(messages.at(-1)?.attachments ?? [], 'messages.last.attachments');
      const reader = readerOf(request);
      const slot = await copilot.running.begin(reader);
      // Nobody reads an answer whose caller went away: stop it, the provider's request included. The caller may have
      // gone while the slot was taken (a round trip to the shared limits), before this listened.
      reply.raw.on('close', () => reply.raw.writableFinished || slot.cancel());
      if (request.raw.socket.destroyed) slot.cancel();
      try {
        const run = await copilot.answer(conversationOfAsk(request.body), { images, reader }, slot.signal);
        if (run.modelFailure) {
          const { code, reason } = run.modelFailure;
          request.log.warn({ code, reason }, 'the model failed; docs answered');
          copilot.observer?.modelFellBack(code);
        }
        let text = '';
        // A JSON caller gets the answer; the model's search shows in the sources it led to.
        for await (const piece of run.pieces) if (typeof piece === 'string') text += piece;
        const finished = run.finish(text);
        const { covered, confidence, sources, closest, smallTalk } = finished;
        await copilot.record({ ...run, covered, confidence, reader, sources, smallTalk, answerId: randomUUID() });
        copilot.observer?.answered(covered, (performance.now() - asked) / 1000, run.mode);
        const response: AskAiResponse = {
          data: finished.text,
          covered,
          confidence,
          sources,
          closest,
          mode: run.mode,
        };
        return response;
      } catch (error) {
        if (slot.signal.aborted) {
          copilot.observer?.cancelled();
          // Stopped by a shutdown, the caller is still waiting: tell it to ask again (another instance answers)
          // rather than leave its connection to be cut. A caller that went away is told nothing.
          const reason: unknown = slot.signal.reason;
          if (reason instanceof StoppedByShutdown) {
            throw new ApiError('cancelled:ask', undefined, askAgainAfterSeconds);
          }
          return reply;
        }
        const code = classifyModelError(error);
        copilot.observer?.failed(code);
        request.log.warn({ code, reason: reasonOf(error) }, 'the model failed');
        return sendApiError(reply, code);
      } finally {
        await slot.end();
      }
    },
  );
}
