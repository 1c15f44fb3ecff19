import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { type OutageProxy, startOutageProxy } from './outage-proxy';

/**
 * A start while PostgreSQL is not reachable yet (a stack started together, a database restarting): the server waits
 * for it, up to DATABASE_STARTUP_WAIT_SECONDS, and starts once it answers; past the wait it gives up with the reason.
 */
let database: TestDatabase;
let proxy: OutageProxy;
let databaseUrl: string;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  databaseUrl = proxy.databaseUrl(target.href);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await database?.drop();
});

const environment = (waitSeconds: number) => ({
  DATABASE_URL: databaseUrl,
  DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
  DATABASE_STARTUP_WAIT_SECONDS: String(waitSeconds),
  LOG_LEVEL: 'fatal',
});

it('waits for a database that comes up after the server starts, then serves', async () => {
  await proxy.outage('refuse');
  const starting = startServerOnItsOwnStore(environment(30));
  let started = false;
  void starting.then(() => {
    started = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(started).toBe(false);
  await proxy.restore();
  const server = await starting;
  try {
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  } finally {
    await server.close();
  }
}, 60_000);

it('gives up with the reason once the wait is over', async () => {
  await proxy.outage('refuse');
  const began = Date.now();
  await expect(startServerOnItsOwnStore(environment(2))).rejects.toThrow(/Could not open PostgreSQL database/);
  expect(Date.now() - began).toBeGreaterThanOrEqual(1500);
  expect(Date.now() - began).toBeLessThan(10_000);
  await proxy.restore();
}, 60_000);
