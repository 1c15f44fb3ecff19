import fp from 'fastify-plugin';
import { type Limits, openLimits } from './limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits per reader, counted for all instances together in PostgreSQL, else here. */
    limits: Limits;
  }
}

/** Said at start to an operator who still sets REDIS_URL (Redis kept the limits until PostgreSQL was shown to hold). */
export const redisUrlIgnored =
  'REDIS_URL is no longer used and is ignored: the limits are shared across instances through the PostgreSQL ' +
  'database (DATABASE_URL); unset REDIS_URL';

/** Opens the limits on the shared PostgreSQL database; with an embedded store this instance counts alone. */
export const limitsPlugin = fp(
  async (app) => {
    const { store } = app;
    if (app.config.redisUrlIgnored) app.log.warn({ variable: 'REDIS_URL' }, redisUrlIgnored);
    const limits = await openLimits({
      postgres: store.kind === 'postgres' ? store.db : undefined,
      log: app.log,
    });
    app.addHook('onClose', () => limits.close());
    app.decorate('limits', limits);
  },
  { name: 'limits', fastify: '5.x', dependencies: ['store'], decorators: { fastify: ['config', 'store'] } },
);
