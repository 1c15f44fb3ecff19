import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../server/src/store/database.js';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases.js';
import { type OutageProxy, startOutageProxy } from './outage-proxy';

/**
 * A store closes at once when nothing runs on it, also after PostgreSQL went silent for a while: postgres.js keeps the
 * query of a connection that failed on it (porsager/postgres: `errored` leaves it set), and its graceful end waited
 * its whole 5 s for that connection, so an idle server took 5 s to stop after any outage.
 */
let database: TestDatabase;
let proxy: OutageProxy;
let store: Store | undefined;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await proxy?.close();
  await database?.drop();
});

it('closes an idle store at once after a black-holed database came back', async () => {
  const target = new URL(database.options.databaseUrl ?? '');
  store = await openStore({
    ...database.options,
    databaseUrl: proxy.databaseUrl(target.href),
    timeouts: { connectSeconds: 1, querySeconds: 1 },
  });
  const opened = store;
  await opened.ping();
  await proxy.outage('blackhole');
  const failed = await Promise.allSettled(Array.from({ length: 12 }, () => opened.ping()));
  expect(failed.every((outcome) => outcome.status === 'rejected')).toBe(true);
  await proxy.restore();
  for (let index = 0; index < 10; index += 1) await opened.ping();

  const started = performance.now();
  await opened.close();
  store = undefined;
  expect(performance.now() - started).toBeLessThan(1000);
}, 60_000);

it('still lets a query under way finish before it closes', async () => {
  const target = new URL(database.options.databaseUrl ?? '');
  const opened = await openStore({ ...database.options, databaseUrl: proxy.databaseUrl(target.href) });
  store = opened;
  // Drizzle sends a query once it is awaited.
  const slow = opened.db.execute('select pg_sleep(0.5) as slept').then((result) => result);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await opened.close();
  store = undefined;
  await expect(slow).resolves.toBeDefined();
}, 60_000);
