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
import { DamagedDatabaseError, inMemoryDataDirectory, openEmbeddedDatabase } from './embedded-database.js';
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
  let panicked = () => false;
  try {
    // One process per directory: a second one would run too, and the one that stops last would overwrite the other.
    if (!inMemory) lock = await lockDirectory(dataDirectory, { onStaleLock: options.onStaleLock });
    client = await openEmbeddedDatabase(dataDirectory);
    ({ panicked } = refuseAfterPanic(client, (error) => options.onPanic?.(error)));
    const db = drizzlePglite({ client, schema });
    if (migrate) await migratePglite(db, { migrationsFolder });
    const opened = client;
    const held = lock;
    return {
      db,
      kind: 'pglite',
      ping: async () => void (await opened.query('select 1')),
      close: async () => {
        // After a panic the engine is not touched again (closing it would spin too); its log is replayed at start.
        if (!panicked()) await opened.close();
        await held?.release();
      },
    };
  } catch (error) {
    // A panic while migrating: the engine is not touched again, as in `close`.
    if (!panicked()) await client?.close().catch(() => {});
    await lock?.release();
    if (error instanceof DamagedDatabaseError) throw error;
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
  const { client, underWay } = countingQueries(createPostgresClient(target.url, timeouts, { max: 10 }));
  const db = drizzlePostgres({ client, schema });
  return {
    db,
    kind: 'postgres',
    ping: async () => void (await client`select 1`),
    close: async () => {
      // The queries under way get up to 5 s to finish; then every connection is closed at once. Not postgres.js's own
      // graceful end: a connection whose query failed with it (a database gone silent) keeps that query, and the end
      // waited for it all its 5 s, so an idle server took 5 s to stop after any outage.
      await underWay.none(closeWaitMs);
      await client.end({ timeout: 0 });
    },
  };
}

/** At close, how long the queries under way get to finish. */
const closeWaitMs = 5000;

/**
 * The client, counting the queries it has under way: Drizzle sends each query outside a transaction through `unsafe`
 * (settled when postgres.js resolves or rejects it) and each transaction through `begin`.
 */
function countingQueries<Client extends postgres.Sql>(client: Client) {
  let count = 0;
  const waiting = new Set<() => void>();
  const started = () => {
    count += 1;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      count -= 1;
      if (count === 0) for (const resolve of waiting) resolve();
    };
  };
  const unsafe = client.unsafe.bind(client);
  const countedUnsafe = ((...args: Parameters<typeof unsafe>) => {
    const query = unsafe(...args);
    const settle = started();
    // Not through `then`: that would send the query before Drizzle asks for its rows as arrays.
    const handle = query as unknown as { resolve(value: unknown): void; reject(error: unknown): void };
    const { resolve, reject } = handle;
    handle.resolve = (value) => {
      settle();
      resolve(value);
    };
    handle.reject = (error) => {
      settle();
      reject(error);
    };
    return query;
  }) as Client['unsafe'];
  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const countedBegin = ((...args: unknown[]) => {
    const settle = started();
    const transaction = begin(...args);
    transaction.then(settle, settle);
    return transaction;
  }) as Client['begin'];
  const underWay = {
    /** Resolves once no query is under way, or after `ms` at the latest. */
    none: (ms: number) =>
      new Promise<void>((resolve) => {
        if (count === 0) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        }
        waiting.add(done);
      }),
  };
  return { client: Object.assign(client, { unsafe: countedUnsafe, begin: countedBegin }), underWay };
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
  // No array types asked for either (postgres-client.ts says why).
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: timeouts.connectSeconds,
    fetch_types: false,
  });
  try {
    await client`select pg_advisory_lock(hashtext(${migrationLockName}))`;
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
    await client`select pg_advisory_unlock(hashtext(${migrationLockName}))`;
  } finally {
    // Closing the connection also releases the lock if migrating failed half-way.
    await client.end({ timeout: 5 });
  }
}
