import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { requireReader } from '../auth/guards.js';
import { registerReaderRateLimit } from '../limits/reader-rate-limit.js';

import { askRoute } from './ask/routes.js';
import { createCopilot } from './copilot.js';
import { threadRoutes } from './threads/routes.js';
import { sweepAbandonedAnswers } from './turn/abandoned-answers.js';
import { turnRoutes } from './turn/routes.js';
import { RunningAnswers, StoppedByShutdown } from './turn/running-answers.js';

/** Dev Copilot's API: only for allowed readers, never cached, questions limited per reader. */
export const copilotRoutes = fp(
  async (app) => {
    const { config, limits } = app;
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    // Before the rate limiter, so it counts per signed-in reader and strangers never reach it.
    app.addHook('onRequest', requireReader({ publicOrigin: config.publicUrl.origin, feature: 'Dev Copilot' }));
    const running = new RunningAnswers(config.askLimits.concurrentPerUser, limits.readerSlots);
    // Started as the server stops listening, not awaited there: new connections are refused at once (a balancer sends
    // readers elsewhere) while the server waits for the open ones, which an answer being streamed keeps open until it
    // ends or the drain stops it. Awaited before the store closes.
    let draining: Promise<void> | undefined;
    app.addHook('preClose', async () => {
      draining = running.drain(config.shutdownTimeoutMs, new StoppedByShutdown()).then((stopped) => {
        if (stopped > 0) app.log.warn({ stopped }, 'stopped answers still running at shutdown');
      });
    });
    app.addHook('onClose', async () => draining);
    sweepAbandonedAnswers(app, app.store.db);
    app.decorate('copilot', createCopilot(app, running));
    await app.register(async (questions) => {
      // A question is a question, asked statelessly or in a turn: both count against one limit per reader.
      await registerReaderRateLimit(questions, {
        scope: 'ask',
        code: 'rate_limited:ask',
        what: 'questions',
        perMinute: config.askLimits.requestsPerMinute,
        store: limits.perMinuteStore,
      });
      await questions.register(askRoute);
      await questions.register(turnRoutes);
    });
    await app.register(threadRoutes);
  },
  {
    name: 'copilot',
    fastify: '5.x',
    encapsulate: true,
    decorators: { fastify: ['config', 'store', 'limits', 'searchIndex', 'model', 'imageText', 'metrics'] },
  },
);
