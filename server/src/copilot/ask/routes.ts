import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError, sendRequestProblem } from '../../api-errors.js';
import { requireAllowedViewer } from '../../auth/guards.js';
import { type AskAiResponse, askAiRequestSchema, describeIssues } from '../contract.js';
import { type CheckedImage, checkImage, ImageProblem } from '../images.js';
import { classifyModelError } from '../model/model-errors.js';
import { type AnswerDependencies, type AnsweredQuestion, type AnswerRun, startAnswer } from './answer-run.js';

export type AskRoutesOptions = AnswerDependencies & {
  requestsPerMinute?: number;
  concurrentPerUser?: number;
  /** Called after every complete answer; a failure here is logged and never reaches the reader. */
  onAnswered?: ((question: AnsweredQuestion) => Promise<void>) | undefined;
};

/** POST /api/askAi: spec section 7's call. JSON by default; Server-Sent Events when the client accepts them. */
export async function askRoutes(app: FastifyInstance, options: AskRoutesOptions) {
  const running = new Map<string, number>();
  const concurrentPerUser = options.concurrentPerUser ?? 2;

  // Before the rate limiter, so it counts per signed-in user and strangers never reach it.
  app.addHook('onRequest', requireAllowedViewer({ publicOrigin: options.publicOrigin, feature: 'Dev Copilot' }));
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) =>
      request.viewer.state === 'signed-in' ? `user:${request.viewer.session.email.toLowerCase()}` : `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new Error(
          `Too many questions: at most ${context.max} a minute. Try again in ${Math.ceil(context.ttl / 1000)} s.`,
        ),
        { statusCode: 429, code: 'rate_limited:ask' },
      ),
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'rate_limited:ask') return sendApiError(reply, 429, error.code, error.message);
    if (sendRequestProblem(reply, error, 'bad_request:ask', 'Send fewer or smaller screenshots, or a shorter text.')) {
      return reply;
    }
    request.log.error({ err: error }, 'askAi failed');
    return sendApiError(reply, 500, 'internal:ask', 'Dev Copilot could not answer; try again.');
  });

  app.post(
    '/api/askAi',
    {
      bodyLimit: 32 * 1024 * 1024,
      config: { rateLimit: { max: options.requestsPerMinute ?? 20, timeWindow: '1 minute' } },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const viewer = request.viewer;
      if (viewer.state !== 'signed-in') throw new Error('askAi reached without a signed-in viewer');
      const parsed = askAiRequestSchema.safeParse(request.body);
      if (!parsed.success) return sendApiError(reply, 400, 'bad_request:ask', describeIssues(parsed.error));
      // Checked here, before any slot is taken; the question's own images are kept decoded for OCR and the model.
      let questionImages: CheckedImage[] = [];
      try {
        const lastIndex = parsed.data.messages.length - 1;
        parsed.data.messages.forEach((message, messageIndex) => {
          const checked = message.attachments.map((attachment, attachmentIndex) =>
            checkImage(attachment, `messages.${messageIndex}.attachments.${attachmentIndex}`),
          );
          if (messageIndex === lastIndex) questionImages = checked;
        });
      } catch (error) {
        if (error instanceof ImageProblem) return sendApiError(reply, 400, 'bad_request:attachment', error.message);
        throw error;
      }

      const user = viewer.session.email.toLowerCase();
      const inFlight = running.get(user) ?? 0;
      if (inFlight >= concurrentPerUser) {
        reply.header('retry-after', '1');
        return sendApiError(reply, 429, 'rate_limited:concurrent', `At most ${concurrentPerUser} questions at once.`);
      }
      running.set(user, inFlight + 1);
      // The reader closing the tab or pressing Stop cancels everything downstream, the provider's request included.
      const cancel = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) cancel.abort(new Error('The reader went away'));
      });
      try {
        const run = await startAnswer(options, parsed.data, questionImages, cancel.signal);
        const streamed = request.headers.accept?.includes('text/event-stream') === true;
        const completed = streamed
          ? await streamAnswer(request, reply, run)
          : await sendAnswer(request, reply, run, cancel.signal);
        // An answer the reader never received is not an answered question.
        if (completed && !cancel.signal.aborted) {
          const sources = run.sources();
          request.log.info({ mode: run.mode, covered: run.covered, sources: sources.length }, 'answered');
          await options
            .onAnswered?.({
              email: user,
              question: run.question,
              mode: run.mode,
              covered: run.covered,
              nearestPage: run.nearestPage,
              sources,
              answerId: run.id,
            })
            .catch((error: unknown) => request.log.error({ err: error }, 'could not record the answered question'));
        }
        return reply;
      } finally {
        const left = (running.get(user) ?? 1) - 1;
        if (left > 0) running.set(user, left);
        else running.delete(user);
      }
    },
  );
}

/** JSON: the whole answer at once. Returns whether an answer was sent. */
async function sendAnswer(request: FastifyRequest, reply: FastifyReply, run: AnswerRun, signal: AbortSignal) {
  let data = '';
  try {
    for await (const piece of run.pieces) data += piece;
  } catch (error) {
    if (signal.aborted) return false;
    const failure = classifyModelError(error);
    request.log.warn({ code: failure.code, reason: reasonOf(error) }, 'the model failed');
    sendApiError(reply, failure.status, failure.code, failure.message);
    return false;
  }
  const response: AskAiResponse = {
    id: run.id,
    data,
    covered: run.covered,
    sources: run.sources(),
    closest: run.closest,
    mode: run.mode,
  };
  reply.header('cache-control', 'no-store').send(response);
  return true;
}

/**
 * Server-Sent Events: `start` with the id and mode, `delta` events with text as it is produced, then `done` with the
 * sources, or `error` with a code and message when the model fails part-way. Returns whether the answer completed.
 */
async function streamAnswer(request: FastifyRequest, reply: FastifyReply, run: AnswerRun) {
  // The headers set so far (security headers among them) go out with the stream; hijacking would drop them.
  const headersSoFar = reply.getHeaders();
  reply.hijack();
  const raw = reply.raw;
  for (const [name, value] of Object.entries(headersSoFar)) {
    if (value !== undefined) raw.setHeader(name, value);
  }
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => {
    if (!raw.destroyed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  send('start', { id: run.id, mode: run.mode });
  try {
    for await (const piece of run.pieces) {
      if (raw.destroyed) return false;
      send('delta', { text: piece });
    }
  } catch (error) {
    if (raw.destroyed) return false;
    const failure = classifyModelError(error);
    request.log.warn({ code: failure.code, reason: reasonOf(error) }, 'the model failed while streaming');
    send('error', { id: run.id, code: failure.code, message: failure.message });
    raw.end();
    return false;
  }
  send('done', { id: run.id, covered: run.covered, sources: run.sources(), closest: run.closest });
  raw.end();
  return !raw.destroyed;
}

/** The underlying reason of a model failure, for the log: one line, no stack. */
function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? (cause.message.split('\n')[0] ?? cause.name) : String(cause);
}
