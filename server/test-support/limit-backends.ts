import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { type Limits, openLimits } from '../src/limits/limits.js';
import { postgresLimitStore } from '../src/limits/postgres-store.js';
import type { Counted, SharedLimitStore } from '../src/limits/shared-store.js';
import { openStore, type Store } from '../src/store/database.js';
import { rateLimitWindows, runningQuestionSlots } from '../src/store/schema.js';
import { createPostgresTestDatabase, type TestDatabase } from './test-databases.js';

/**
 * The shared limits as several server instances would see them: every `instance()` has a connection of its own to one
 * throwaway PostgreSQL database.
 */
export type LimitBackend = {
  name: 'PostgreSQL';
  /** Before the suite: the shared database. */
  setUp(): Promise<void>;
  /** One more instance's limits. */
  instance(options: { log: FastifyBaseLogger; slotLifetimeMs?: number; timeoutMs?: number }): Promise<Limits>;
  /** The store itself, as an instance uses it: e.g. to take a slot that nobody refreshes (its instance died). */
  rawStore(): Promise<SharedLimitStore>;
  /** As if `ms` had passed on the database's clock, which the limits go by: every window and slot ends that much sooner. */
  elapse(ms: number): Promise<void>;
  /** Closes every instance and drops the database. */
  tearDown(): Promise<void>;
};

export function postgresBackend(): LimitBackend {
  let database: TestDatabase | undefined;
  const stores: Store[] = [];
  const limits: Limits[] = [];
  const connect = async () => {
    if (!database) throw new Error('set up the PostgreSQL backend first');
    const store = await openStore(database.options);
    stores.push(store);
    return store;
  };
  return {
    name: 'PostgreSQL',
    async setUp() {
      database = await createPostgresTestDatabase();
    },
    async instance(options) {
      const opened = await openLimits({ postgres: (await connect()).db, ...options });
      limits.push(opened);
      return opened;
    },
    rawStore: async () => postgresLimitStore((await connect()).db),
    async elapse(ms) {
      const { db } = stores[0] ?? (await connect());
      const earlier = (column: AnyPgColumn) => sql`${column} - ${ms}::integer * interval '1 millisecond'`;
      await db.update(rateLimitWindows).set({ endsAt: earlier(rateLimitWindows.endsAt) });
      await db.update(runningQuestionSlots).set({ expiresAt: earlier(runningQuestionSlots.expiresAt) });
    },
    async tearDown() {
      for (const instance of limits) await instance.close();
      for (const store of stores) await store.close();
      await database?.drop();
    },
  };
}

/** Counts one request under `key` in an instance's store for @fastify/rate-limit, as the plugin does. */
export function countIn(limits: Limits, { windowMs = 60_000, max = 4 } = {}) {
  const Store = limits.perMinuteStore;
  if (!Store) throw new Error(`limits counted in ${limits.where} have no shared store`);
  const store = new Store({});
  return (key: string) =>
    new Promise<Counted>((resolve, reject) =>
      store.incr(key, (error, counted) => (counted ? resolve(counted) : reject(error)), windowMs, max),
    );
}
