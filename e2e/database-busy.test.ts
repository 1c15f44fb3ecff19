import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { sessionCookieFor } from './sign-in';

/**
 * PostgreSQL busy rather than away: a table locked by another session, so every query on it runs until its statement
 * timeout and the pool's connections are all taken. The queries queued behind them give up after the query timeout
 * too, so each reader hears within about twice the timeout (a 503 to retry, or their answer), never after the queue.
 */
const querySeconds = 1;
/** A wait for a connection, the query's own run, and some slack for a busy test machine. */
const boundMs = (2 * querySeconds + 1.5) * 1000;

let database: TestDatabase;
let server: Awaited<ReturnType<typeof startServerOnItsOwnStore>>;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  server = await startServerOnItsOwnStore({
    DATABASE_URL: database.options.databaseUrl ?? '',
    DATABASE_QUERY_TIMEOUT_SECONDS: String(querySeconds),
    LOG_LEVEL: 'fatal',
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

it('answers every reader within the timeouts while a table is locked, and serves again once it is free', async () => {
  const cookie = await sessionCookieFor(server.baseUrl, 'queued@acme.dev');
  const list = async () => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/threads`, { headers: { cookie } });
    await response.text();
    return { status: response.status, ms: performance.now() - started };
  };
  expect((await list()).status).toBe(200);

  const locker = postgres(database.options.databaseUrl ?? '', { max: 1, onnotice: () => {} });
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const locking = locker.begin(async (transaction) => {
    await transaction`lock table threads in access exclusive mode`;
    await held;
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A hundred at once against a pool of ten, each query held by the lock until its 1 s statement timeout: queued,
    // the last would wait ten rounds.
    const answers = await Promise.all(Array.from({ length: 100 }, list));
    expect(answers.every((answer) => answer.status === 503)).toBe(true);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(boundMs);
  } finally {
    release();
    await locking;
    await locker.end();
  }
  expect((await list()).status).toBe(200);
}, 60_000);
