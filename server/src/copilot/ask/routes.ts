import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from '../../api-errors.js';
import { requireAllowedViewer } from '../../auth/guards.js';
import { type AskAiRequest, type AskAiResponse, askAiRequestSchema, describeIssues } from '../contract.js';
import { checkImage, ImageProblem } from '../images.js';
import { composeDocsOnlyAnswer, type RetrievedSection } from './docs-only-answer.js';

/** The part of the docs search index that answering needs. */
export type AnswerIndex = {
  search(query: string, options?: { limit?: number; currentPage?: string }): RetrievedSection[];
  excerpt(section: RetrievedSection, query: string, maxChars: number): string;
};

export type AskRoutesOptions = {
  publicOrigin: string;
  currentIndex: () => AnswerIndex;
  requestsPerMinute?: number;
  concurrentPerUser?: number;
};

/** The question to search for: the last user message, with the one before it when the last is a short follow-up. */
export function searchQueryOf(request: AskAiRequest): string {
  const userTexts = request.messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      message.content
        .map((part) => part.text)
        .join(' ')
        .trim(),
    );
  const last = userTexts.at(-1) ?? '';
  const previous = userTexts.at(-2);
  return previous && last.split(/\s+/).length < 4 ? `${previous} ${last}` : last;
}

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
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: {
        code: 'rate_limited:ask',
        message: `Too many questions: at most ${context.max} a minute. Try again in ${Math.ceil(context.ttl / 1000)} s.`,
      },
    }),
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
      try {
        parsed.data.messages.forEach((message, messageIndex) => {
          message.attachments.forEach((attachment, attachmentIndex) => {
            checkImage(attachment, `messages.${messageIndex}.attachments.${attachmentIndex}`);
          });
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
      try {
        const answer = answerFromDocs(options.currentIndex(), parsed.data);
        request.log.info({ covered: answer.covered, sources: answer.sources.length }, 'answered from the docs');
        const response: AskAiResponse = {
          id: randomUUID(),
          data: answer.markdown,
          sources: answer.sources,
          mode: 'docs-only',
        };
        if (request.headers.accept?.includes('text/event-stream')) return streamAnswer(request, reply, response);
        return reply.header('cache-control', 'no-store').send(response);
      } finally {
        const left = (running.get(user) ?? 1) - 1;
        if (left > 0) running.set(user, left);
        else running.delete(user);
      }
    },
  );
}

function answerFromDocs(index: AnswerIndex, request: AskAiRequest) {
  const query = searchQueryOf(request);
  const results = index.search(query, { limit: 8, ...(request.page ? { currentPage: request.page } : {}) });
  return composeDocsOnlyAnswer({
    question: query,
    results,
    excerpt: (section) => index.excerpt(section, query, 320),
  });
}

/**
 * Server-Sent Events: `delta` events carry text as it is produced, `done` the id and sources. The docs-only answer is
 * ready at once; it is still sent in pieces so the widget's streaming path is the same for every mode.
 */
function streamAnswer(request: FastifyRequest, reply: FastifyReply, response: AskAiResponse) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  request.raw.on('close', () => {
    closed = true;
  });
  const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('start', { id: response.id, mode: response.mode });
  for (const piece of response.data.match(/\S+\s*|\s+/g) ?? []) {
    if (closed) return;
    send('delta', { text: piece });
  }
  send('done', { id: response.id, sources: response.sources });
  raw.end();
}
