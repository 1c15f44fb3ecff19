import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { serverDirectory } from '../server-directory.js';
import { describeError } from './describe-error.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { inMemoryDataDirectory, openEmbeddedDatabase } from './embedded-database.js';
import { refuseAfterPanic } from './embedded-panic.js';
import { createPostgresClient, type DatabaseTimeouts, defaultDatabaseTimeouts } from './postgres-client.js';
import { type PostgresUrl, parsePostgresUrl } from './postgres-url.js';
import * as schema from './schema.js';
import { isDatabaseUnavailable } from './unavailable.js';

export type StoreOptions = {
  /** PostgreSQL URL; when absent the store is an embedded PGlite database in `dataDirectory`. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps them in memory (tests). */
  dataDirectory: string;
  /** PostgreSQL only: how long to wait on it before a query fails. */
  timeouts?: DatabaseTimeouts | undefined;
  /** Told when a PGlite directory's lock was left by a process that no longer runs, and taken over. */
  onStaleLock?: ((message: string) => void) | undefined;
  /** PostgreSQL only: how long opening waits for the database to be reachable; 0 (the default) gives up at once. */
  startupWaitMs?: number | undefined;
  /** Told each time opening finds PostgreSQL unreachable and waits to try again. */
  onWaiting?: ((message: string) => void) | undefined;
  /** Told when PGlite panics (refuseAfterPanic): it answers no query after that, until the process starts again. */
  onPanic?: ((error: unknown) => void) | undefined;
};

/** What every query function takes: the same Drizzle API whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Store = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export { inMemoryDataDirectory };

/** Resolved from the server's directory, not the working directory, so the server can start from anywhere. */
const migrationsFolder = path.join(serverDirectory, 'drizzle');

/** Opens the database and brings its schema up to date before anything queries it. */
export async function openStore(options: StoreOptions & { migrate?: boolean }): Promise<Store> {
  const migrate = options.migrate ?? true;
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    return openPostgresStore(
      parsePostgresUrl(options.databaseUrl),
      options.timeouts ?? defaultDatabaseTimeouts,
      migrate,
      options,
    );
  }
  return openPgliteStore(options, migrate);
}

async function openPgliteStore(options: StoreOptions, migrate: boolean): Promise<Store> {
  const { dataDirectory } = options;
  const inMemory = dataDirectory === inMemoryDataDirectory;
  const name = inMemory ? 'in-memory PGlite database' : `PGlite database in ${dataDirectory}`;
  let lock: DirectoryLock | undefined;
  let client: PGlite | undefined;
  try {
    // One process per directory: a second one would run too, and the one that stops last would overwrite the other.
    if (!inMemory) lock = await lockDirectory(dataDirectory, { onStaleLock: options.onStaleLock });
    client = await openEmbeddedDatabase(dataDirectory);
    const guarded = refuseAfterPanic(client, (error) => options.onPanic?.(error));
    const db = drizzlePglite({ client: guarded.client, schema });
    if (migrate) await migratePglite(db, { migrationsFolder });
    const opened = guarded.client;
    const held = lock;
    return {
      db,
      kind: 'pglite',
      ping: async () => void (await opened.query('select 1')),
      close: async () => {
        // After a panic the engine is not touched again (closing it would spin too); its log is replayed at start.
        if (!guarded.panicked()) await opened.close();
        await held?.release();
      },
    };
  } catch (error) {
    await client?.close().catch(() => {});
    await lock?.release();
    throw new Error(`Could not open the ${name}: ${describeError(error)}`, { cause: error });
  }
}

async function openPostgresStore(
  target: PostgresUrl,
  timeouts: DatabaseTimeouts,
  migrate: boolean,
  waiting: Pick<StoreOptions, 'startupWaitMs' | 'onWaiting'>,
): Promise<Store> {
  try {
    if (migrate) await whileUnreachable(() => migratePostgresOnce(target.url, timeouts), target, waiting);
  } catch (error) {
    throw new Error(`Could not open PostgreSQL database ${target.displayName}: ${describeError(error)}`, {
      cause: error,
    });
  }
  const client = createPostgresClient(target.url, timeouts, { max: 10 });
  const db = drizzlePostgres({ client, schema });
  return {
    db,
    kind: 'postgres',
    ping: async () => void (await client`select 1`),
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * `attempt` until PostgreSQL is reachable, for up to `startupWaitMs`, with growing pauses: a stack started together
 * (the database still starting), or a database restarting, is waited for instead of ending the start. Any other
 * failure (a wrong password, a missing database) ends it at once.
 */
async function whileUnreachable(
  attempt: () => Promise<void>,
  target: PostgresUrl,
  { startupWaitMs = 0, onWaiting }: Pick<StoreOptions, 'startupWaitMs' | 'onWaiting'>,
) {
  const giveUpAt = Date.now() + startupWaitMs;
  for (let pauseMs = 500; ; pauseMs = Math.min(pauseMs * 2, 5000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + pauseMs > giveUpAt) throw error;
      onWaiting?.(
        `PostgreSQL database ${target.displayName} is not reachable yet (${describeError(error)}); trying again in ${pauseMs / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * Several server instances may start at once against one database; Drizzle's migrator alone would race on
 * creating its bookkeeping table. A session advisory lock on a dedicated connection lets one migrate while
 * the others wait, then find nothing left to do.
 */
const migrationLockName = 'acme-handbook:migrations';

async function migratePostgresOnce(url: string, timeouts: DatabaseTimeouts): Promise<void> {
  // No statement timeout: waiting for the lock while another instance migrates may take longer than a query should.
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: timeouts.connectSeconds });
  try {
    await client`select pg_advisory_lock(hashtext(${migrationLockName}))`;
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
    await client`select pg_advisory_unlock(hashtext(${migrationLockName}))`;
  } finally {
    // Closing the connection also releases the lock if migrating failed half-way.
    await client.end({ timeout: 5 });
  }
}
