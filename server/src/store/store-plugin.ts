import path from 'node:path';
import fp from 'fastify-plugin';
import { openStore, type Store } from './database.js';
import { keepDataDirectoryPrivate } from './private-files.js';

/** After the embedded database panics, how long readers get their 503s before the process ends. */
const panicExitMs = 1000;

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
        startupWaitMs: config.databaseStartupWaitMs,
        onWaiting: (message) => app.log.warn(message),
        onPanic: (error) => {
          app.log.fatal(
            { err: error },
            `the embedded database panicked (a write to its files failed) and refuses every query; exiting in ${panicExitMs} ms so that the server is started again, which replays the database's log`,
          );
          // Not through the shutdown's drain: running answers could no longer be stored, and its close would touch
          // the engine again. A supervisor (compose's restart policy, systemd) starts the server again.
          setTimeout(() => process.exit(1), panicExitMs);
        },
      }));
    if (!options.store) app.addHook('onClose', () => store.close());
    app.decorate('store', store);
  },
  { name: 'store', fastify: '5.x', decorators: { fastify: ['config'] } },
);
