import type { FastifyBaseLogger } from 'fastify';
import { type Limits, openLimits } from '../src/limits/limits.js';
import { postgresLimitStore } from '../src/limits/postgres-store.js';
import { openRedisLimitStore } from '../src/limits/redis-store.js';
import type { Counted, SharedLimitStore } from '../src/limits/shared-store.js';
import { openStore, type Store } from '../src/store/database.js';
import { redisTestKeys, testRedisUrl } from './limits.js';
import { createPostgresTestDatabase, type TestDatabase } from './test-databases.js';

/**
 * Where the shared limits can live, each as several server instances would see it: every `instance()` has a connection
 * of its own to one Redis (keys under a prefix of this run) or one throwaway PostgreSQL database.
 */
export type LimitBackend = {
  name: 'Redis' | 'PostgreSQL';
  /** Before the suite: the shared Redis keys or database. */
  setUp(): Promise<void>;
  /** One more instance's limits. */
  instance(options: { log: FastifyBaseLogger; slotLifetimeMs?: number; timeoutMs?: number }): Promise<Limits>;
  /** The store itself, as an instance uses it: e.g. to take a slot that nobody refreshes (its instance died). */
  rawStore(): Promise<SharedLimitStore>;
  /** Closes every instance and deletes the keys or drops the database. */
  tearDown(): Promise<void>;
};

export function redisBackend(): LimitBackend {
  const keys = redisTestKeys();
  const opened: Array<{ close(): Promise<void> }> = [];
  return {
    name: 'Redis',
    setUp: async () => {},
    async instance(options) {
      const limits = await openLimits({ redisUrl: testRedisUrl, keyPrefix: keys.keyPrefix, ...options });
      opened.push(limits);
      return limits;
    },
    async rawStore() {
      const store = await openRedisLimitStore({ url: testRedisUrl, keyPrefix: keys.keyPrefix, onError: () => {} });
      opened.push(store);
      return store;
    },
    async tearDown() {
      for (const instance of opened) await instance.close();
      await keys.deleteAll();
    },
  };
}

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
