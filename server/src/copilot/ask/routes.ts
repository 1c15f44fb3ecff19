import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { LanguageModel } from 'ai';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError, sendRequestProblem } from '../../api-errors.js';
import { requireAllowedViewer } from '../../auth/guards.js';
import { redactSecrets } from '../../redact-secrets.js';
import { type Retrieval, retrieve } from '../../search/coverage.js';
import type { SearchEngine } from '../../search/engine.js';
import { reorderByMeaning, type SemanticHit } from '../../search/semantic-index.js';
import {
  type AskAiRequest,
  type AskAiResponse,
  type AskAiSource,
  askAiRequestSchema,
  describeIssues,
} from '../contract.js';
import { type CheckedImage, checkImage, ImageProblem } from '../images.js';
import { answerWithModel } from '../model/model-answer.js';
import { classifyModelError } from '../model/model-errors.js';
import { closestPagesMarkdown, composeDocsOnlyAnswer } from './docs-only-answer.js';

/** What is known of one answered question once its answer is complete; the maintainers' report reads these. */
export type AnsweredQuestion = {
  email: string;
  question: string;
  mode: AskAiResponse['mode'];
  covered: boolean;
  /** The page of the best-ranked section, whether or not it answered. */
  nearestPage: { url: string; title: string } | null;
  sources: AskAiSource[];
  answerId: string;
};

export type AskRoutesOptions = {
  publicOrigin: string;
  currentIndex: () => SearchEngine;
  requestsPerMinute?: number;
  concurrentPerUser?: number;
  /** The configured language model; without one, answers are built from the docs alone. */
  model?: { languageModel: LanguageModel; timeoutMs: number; vision: boolean; maxOutputTokens: number } | undefined;
  /** Reads the text of the question's screenshots (OCR); without it, screenshots reach only a vision model. */
  readImageText?: ((images: readonly CheckedImage[], signal: AbortSignal) => Promise<string>) | undefined;
  /** Sections nearest in meaning to a question, when an embedding model is configured (hybrid retrieval). */
  semanticSearch?:
    | ((query: string, options: { limit: number; signal?: AbortSignal }) => Promise<SemanticHit[]>)
    | undefined;
  /** Called after every complete answer; a failure here is logged and never reaches the reader. */
  onAnswered?: ((question: AnsweredQuestion) => Promise<void>) | undefined;
};

/** One answer on its way: text pieces as they come, then what it was based on. */
type AnswerRun = {
  id: string;
  mode: AskAiResponse['mode'];
  question: string;
  covered: boolean;
  nearestPage: AnsweredQuestion['nearestPage'];
  /** Pages near an uncovered question, shown as such and never as sources. */
  closest: AskAiSource[];
  pieces: AsyncIterable<string>;
  /** Complete once `pieces` is exhausted. */
  sources(): AskAiSource[];
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

/** Reads the screenshots of the question, retrieves the sections and starts the answer in the configured mode. */
async function startAnswer(
  options: AskRoutesOptions,
  request: AskAiRequest,
  images: readonly CheckedImage[],
  signal: AbortSignal,
): Promise<AnswerRun> {
  const index = options.currentIndex();
  const typed = searchQueryOf(request);
  // The page boosts retrieval and is named to the model: only the site's own URL of a real page is used, never the
  // client's string (the URL parser drops a query or newlines that would otherwise reach the prompt).
  const page = request.page ? index.sectionAt(request.page)?.pageUrl : undefined;
  // Screenshots of terminals carry tokens; none of them goes to a provider or into the questions log.
  const imageText =
    images.length && options.readImageText ? redactSecrets(await options.readImageText(images, signal)).trim() : '';
  const question = [typed, imageText].filter(Boolean).join('\n');
  // "What is this?" says nothing to judge coverage by; the screenshot's text then speaks for the question.
  const typedTerms = index.queryTerms(typed).filter((term) => !term.expansion && !term.generic);
  const coverageQuestion = typedTerms.length >= 2 ? typed : question;
  const found = retrieve(index, coverageQuestion, { limit: 20, currentPage: page });
  const meaning = options.semanticSearch ? await options.semanticSearch(question, { limit: 20, signal }) : [];
  const retrieval: Retrieval = { ...found, hits: reorderByMeaning(found.hits, meaning).slice(0, 8) };
  const id = request.answerId ?? randomUUID();
  const best = retrieval.hits[0];
  const nearestPage = best ? { url: best.pageUrl, title: best.pageTitle } : null;
  const covered = retrieval.coverage.covered;

  if (!options.model) {
    const answer = composeDocsOnlyAnswer({
      retrieval,
      termWeight: index.termWeight,
      meaningWeight: index.meaningWeight,
      readFromImages: imageText || undefined,
      imagesUnread: images.length > 0 && !imageText,
    });
    return {
      id,
      mode: 'docs-only',
      question,
      covered,
      nearestPage,
      closest: answer.closest,
      pieces: inPieces(answer.markdown),
      sources: () => answer.sources,
    };
  }

  const answer = answerWithModel({
    model: options.model.languageModel,
    timeoutMs: options.model.timeoutMs,
    vision: options.model.vision,
    maxOutputTokens: options.model.maxOutputTokens,
    request,
    page,
    retrieved: covered ? retrieval.hits : [],
    sectionAt: (url) => index.sectionAt(url),
    publicOrigin: options.publicOrigin,
    imageText,
    signal,
  });
  const closest = covered
    ? []
    : [
        ...new Map(retrieval.hits.map((hit) => [hit.pageUrl, { title: hit.pageTitle, url: hit.pageUrl }])).values(),
      ].slice(0, 3);
  return {
    id,
    mode: 'model',
    question,
    nearestPage,
    covered,
    closest,
    pieces: closest.length ? withClosestPages(answer.pieces, closest) : answer.pieces,
    sources: () => (covered ? answer.sources() : []),
  };
}

/** A model's answer to an uncovered question, followed by the closest pages, as a docs-only answer lists them. */
async function* withClosestPages(
  pieces: AsyncIterable<string>,
  closest: readonly AskAiSource[],
): AsyncGenerator<string> {
  yield* pieces;
  yield `\n\n${closestPagesMarkdown(closest)}`;
}

/**
 * The docs-only answer is ready at once; it is still sent in word-sized pieces so the widget's streaming path is the
 * same for every mode.
 */
async function* inPieces(markdown: string): AsyncGenerator<string> {
  for (const piece of markdown.match(/\S+\s*|\s+/g) ?? []) yield piece;
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
