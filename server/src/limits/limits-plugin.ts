import fp from 'fastify-plugin';
import { type Limits, openLimits } from './limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits per reader, counted for all instances together: in Redis, else PostgreSQL, else here. */
    limits: Limits;
  }
}

/** Opens the limits where REDIS_URL or the shared PostgreSQL database says; an embedded store counts here alone. */
export const limitsPlugin = fp(
  async (app) => {
    const { store } = app;
    const limits = await openLimits({
      redisUrl: app.config.redisUrl,
      postgres: store.kind === 'postgres' ? store.db : undefined,
      log: app.log,
    });
    app.addHook('onClose', () => limits.close());
    app.decorate('limits', limits);
  },
  { name: 'limits', fastify: '5.x', dependencies: ['store'], decorators: { fastify: ['config', 'store'] } },
);
