import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { requireAllowedViewer } from '../auth/guards.js';
import { registerReaderRateLimit } from '../limits/reader-rate-limit.js';
import { recordQuestion } from '../store/questions.js';
import { askRoute } from './ask/routes.js';
import type { CopilotOptions, CopilotRouteOptions } from './route-options.js';
import { threadRoutes } from './threads/routes.js';
import { sweepAbandonedAnswers } from './turn/abandoned-answers.js';
import { turnRoutes } from './turn/routes.js';
import { RunningAnswers, StoppedByShutdown } from './turn/running-answers.js';

// For those who start the API; the route plugins import these from route-options.ts, never from here (no loop).
export type { CopilotOptions, CopilotRouteOptions };

/** Dev Copilot's API: only for allowed readers, never cached, questions limited per reader. */
export async function copilotRoutes(app: FastifyInstance, options: CopilotOptions) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // Before the rate limiter, so it counts per signed-in reader and strangers never reach it.
  app.addHook('onRequest', requireAllowedViewer({ publicOrigin: options.publicOrigin, feature: 'Dev Copilot' }));
  const running = new RunningAnswers(options.concurrentPerUser ?? 2, options.limits?.readerSlots);
  // Started as the server stops listening, not awaited there: new connections are refused at once (a balancer sends
  // readers elsewhere) while the server waits for the open ones, which an answer being streamed keeps open until it
  // ends or the drain stops it. Awaited before the store closes.
  let draining: Promise<void> | undefined;
  app.addHook('preClose', async () => {
    draining = running.drain(options.shutdownTimeoutMs ?? 10_000, new StoppedByShutdown()).then((stopped) => {
      if (stopped > 0) app.log.warn({ stopped }, 'stopped answers still running at shutdown');
    });
  });
  app.addHook('onClose', async () => draining);
  sweepAbandonedAnswers(app, options.db);
  const routeOptions: CopilotRouteOptions = {
    ...options,
    running,
    recordAnswer: (answered) =>
      recordQuestion(options.db, {
        owner: answered.owner,
        question: answered.question,
        mode: answered.mode,
        covered: answered.covered,
        confidence: answered.confidence,
        nearestPage: answered.nearestPage,
        sources: answered.sources,
        answerMessageId: answered.answerId,
      }).catch((error: unknown) => app.log.error({ err: error }, 'could not record the answered question')),
    bodyLimit: 32 * 1024 * 1024,
  };
  await app.register(async (questions) => {
    // A question is a question, asked statelessly or in a turn: both count against one limit per reader.
    await registerReaderRateLimit(questions, {
      scope: 'ask',
      code: 'rate_limited:ask',
      what: 'questions',
      perMinute: options.requestsPerMinute ?? 20,
      store: options.limits?.perMinuteStore,
    });
    await questions.register(askRoute, routeOptions);
    await questions.register(turnRoutes, routeOptions);
  });
  await app.register(threadRoutes, routeOptions);
}
