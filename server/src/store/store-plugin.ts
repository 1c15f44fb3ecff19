import path from 'node:path';
import fp from 'fastify-plugin';
import { openStore, type Store } from './database.js';
import { keepDataDirectoryPrivate } from './private-files.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database: PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL. */
    store: Store;
  }
}

/**
 * Opens the store (and keeps DATA_DIR private to this user first), or takes one already open (tests share one), which
 * it then leaves open on closing.
 */
export const storePlugin = fp<{ store?: Store | undefined }>(
  async (app, options) => {
    const { config } = app;
    await keepDataDirectoryPrivate(config.dataDirectory, app.log);
    const store =
      options.store ??
      (await openStore({
        databaseUrl: config.databaseUrl,
        dataDirectory: path.join(config.dataDirectory, 'pglite'),
        timeouts: config.databaseTimeouts,
        onStaleLock: (message) => app.log.warn(message),
      }));
    if (!options.store) app.addHook('onClose', () => store.close());
    app.decorate('store', store);
  },
  { name: 'store', fastify: '5.x', decorators: { fastify: ['config'] } },
);
