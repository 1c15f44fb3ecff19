import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { requireAllowedViewer } from '../auth/guards.js';
import { registerReaderRateLimit } from '../reader-rate-limit.js';
import { failAbandonedAnswers } from '../store/messages.js';
import { recordQuestion } from '../store/questions.js';
import { askRoute } from './ask/routes.js';
import type { CopilotOptions, CopilotRouteOptions } from './route-options.js';
import { threadRoutes } from './threads/routes.js';
import { turnRoutes } from './turn/routes.js';
import { RunningAnswers } from './turn/running-answers.js';

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
  await registerReaderRateLimit(app, { scope: 'ask', code: 'rate_limited:ask', what: 'questions' });
  const running = new RunningAnswers(options.concurrentPerUser ?? 2);
  app.addHook('onClose', async () => running.abortAll(new Error('The server is shutting down')));
  // An answer outlives no server: one still `running` well past the model's time limit lost its writer.
  const longestAnswerMs = (options.model?.timeoutMs ?? 60_000) + 5 * 60_000;
  const failAbandoned = () =>
    failAbandonedAnswers(options.db, new Date(Date.now() - longestAnswerMs))
      .then((count) => count && app.log.warn({ count }, 'marked answers abandoned by a stopped server as failed'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not end abandoned answers'));
  const sweeping = setInterval(failAbandoned, 5 * 60_000).unref();
  app.addHook('onReady', failAbandoned);
  app.addHook('onClose', async () => clearInterval(sweeping));
  const routeOptions: CopilotRouteOptions = {
    ...options,
    running,
    recordAnswer: (answered) =>
      recordQuestion(options.db, {
        ownerEmail: answered.email,
        question: answered.question,
        mode: answered.mode,
        covered: answered.covered,
        nearestPage: answered.nearestPage,
        sources: answered.sources,
        answerMessageId: answered.answerId,
      }).catch((error: unknown) => app.log.error({ err: error }, 'could not record the answered question')),
    bodyLimit: 32 * 1024 * 1024,
    rateLimit: { rateLimit: { max: options.requestsPerMinute ?? 20, timeWindow: '1 minute' } },
  };
  await app.register(askRoute, routeOptions);
  await app.register(turnRoutes, routeOptions);
  await app.register(threadRoutes, routeOptions);
}
