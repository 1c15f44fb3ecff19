import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { type OutageProxy, startOutageProxy } from './outage-proxy';
import { sessionCookieFor } from './sign-in';

/**
 * PostgreSQL in a black hole (a network partition: connections stay open, nothing comes back) while signed-in readers
 * use their chats, with the default timeouts: every request that needs the database is told 503 within
 * DATABASE_QUERY_TIMEOUT_SECONDS and a second, as README promises, while a query that is slow but answers is not cut
 * short.
 */
const querySeconds = 5;
/** The bound README documents (the query timeout and a second), and a second more for a busy machine. */
const boundMs = (querySeconds + 2) * 1000;

let database: TestDatabase;
let proxy: OutageProxy;
let server: Awaited<ReturnType<typeof startServerOnItsOwnStore>>;
/** Signed in beforehand; the first is seen just before the outage (its session cached), the second is not. */
let seenReader: Reader;
let unseenReader: Reader;
let seenThread: string;
let unseenThread: string;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  // The default database timeouts: the bound under test is the one a deployment gets.
  server = await startServerOnItsOwnStore({ DATABASE_URL: proxy.databaseUrl(target.href), LOG_LEVEL: 'fatal' });
  seenReader = readerOn(server.baseUrl, await sessionCookieFor(server.baseUrl, 'partitioned@acme.dev'));
  unseenReader = readerOn(server.baseUrl, await sessionCookieFor(server.baseUrl, 'unseen@acme.dev'));
  seenThread = await seenReader.newThread();
  unseenThread = await unseenReader.newThread();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await database?.drop();
});

/** One signed-in reader's calls to the chat API; one that hangs fails the test after a while instead of the suite. */
function readerOn(baseUrl: string, cookie: string) {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { origin: baseUrl, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(boundMs + 20_000),
    });
  return {
    call,
    async newThread() {
      const response = await call('POST', '/api/threads', {});
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
  };
}

type Reader = ReturnType<typeof readerOn>;

/** The chat requests a reader makes, each timed from its start to its whole answer. */
function threadRequests(reader: Reader, threadId: string) {
  const timed = async (name: string, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const response = await reader.call(method, path, body);
    const text = await response.text();
    return { name, status: response.status, text, ms: Math.round(performance.now() - started) };
  };
  return [
    timed('list', 'GET', '/api/threads?status=regular'),
    timed('read', 'GET', `/api/threads/${threadId}`),
    timed('rename', 'PATCH', `/api/threads/${threadId}`, { title: 'Renamed in a partition' }),
  ];
}

describe('PostgreSQL in a black hole', () => {
  it('lets a slow query that answers within the query timeout finish', async () => {
    // Another client holds the chat's row for 4 s, so the rename waits on its lock as on a busy database.
    const direct = postgres(database.options.databaseUrl ?? '', { max: 1, onnotice: () => {} });
    try {
      const holding = direct.begin(async (transaction) => {
        await transaction`select id from threads where id = ${seenThread} for update`;
        await new Promise((resolve) => setTimeout(resolve, 4000));
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [rename] = threadRequests(seenReader, seenThread).slice(2);
      const answered = await rename;
      await holding;
      expect(answered?.status).toBe(200);
      expect(answered?.ms).toBeGreaterThan(3000);
    } finally {
      await direct.end({ timeout: 1 });
    }
  }, 30_000);

  it('answers every chat request 503 within the query timeout, however often it is asked', async () => {
    // Connections of the pool in use just now, so the black hole catches open ones as well as new ones.
    await Promise.all(threadRequests(seenReader, seenThread));
    await proxy.outage('blackhole');
    try {
      // Twice: the second round finds the pool's connections dropped or dead, and opens new ones into the hole.
      for (const round of [1, 2]) {
        const answers = await Promise.all([
          ...threadRequests(seenReader, seenThread),
          ...threadRequests(unseenReader, unseenThread),
        ]);
        const times = answers.map(({ name, ms }) => `${name} ${ms} ms`).join(', ');
        for (const answer of answers) {
          expect(answer.status, `round ${round}: ${answer.name}`).toBe(503);
          expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'unavailable:database' } });
          expect(answer.ms, `round ${round}: ${times}`).toBeLessThan(boundMs);
        }
      }
    } finally {
      await proxy.restore();
    }
  }, 90_000);
});
