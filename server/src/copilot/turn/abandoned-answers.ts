import type { FastifyInstance } from 'fastify';
import { failStaleAnswers, staleAnswerMs } from '../../store/answer-progress.js';
import type { Database } from '../../store/database.js';

/** Often enough that an answer is ended within a minute of its going stale. */
const sweepEveryMs = staleAnswerMs / 2;

/**
 * An answer outlives no server: one still `running` whose instance has not written it or said it still writes it
 * for `staleAnswerMs` lost the server writing it (a crash, a kill, a deploy). At start and every half minute such
 * answers are marked failed, on every instance (the query is cheap: an index holds only the running answers), so no
 * reader waits on them.
 */
export function sweepAbandonedAnswers(app: FastifyInstance, db: Database) {
  const sweep = () =>
    failStaleAnswers(db)
      .then((count) => count && app.log.warn({ count }, 'marked answers abandoned by a stopped server as failed'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not end abandoned answers'));
  const timer = setInterval(sweep, sweepEveryMs).unref();
  app.addHook('onReady', sweep);
  app.addHook('onClose', async () => clearInterval(timer));
}
