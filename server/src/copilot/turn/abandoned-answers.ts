import type { FastifyInstance } from 'fastify';
import type { Database } from '../../store/database.js';
import { failAbandonedAnswers } from '../../store/messages.js';

const sweepEveryMs = 5 * 60_000;

/**
 * An answer outlives no server: one still `running` well past the model's time limit lost the server writing it
 * (a crash, a deploy). At start and every five minutes such answers are marked failed, so no reader waits on them.
 */
export function sweepAbandonedAnswers(app: FastifyInstance, db: Database, modelTimeoutMs = 60_000) {
  const longestAnswerMs = modelTimeoutMs + 5 * 60_000;
  const sweep = () =>
    failAbandonedAnswers(db, new Date(Date.now() - longestAnswerMs))
      .then((count) => count && app.log.warn({ count }, 'marked answers abandoned by a stopped server as failed'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not end abandoned answers'));
  const timer = setInterval(sweep, sweepEveryMs).unref();
  app.addHook('onReady', sweep);
  app.addHook('onClose', async () => clearInterval(timer));
}
