import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { type OutageKind, type OutageProxy, startOutageProxy } from './outage-proxy';
import { sessionCookieFor } from './sign-in';

/**
 * The server on a throwaway PostgreSQL database behind a proxy the test controls, through every kind of outage:
 * readers get a short 503 within the configured timeouts (never a hang, never SQL or a session id), /readyz says so,
 * and once the database is back everything answers again without a restart.
 */
const connectSeconds = 1;
const querySeconds = 1;
/** The longest a request may take in an outage: README's max(connect, query) + 1 s, twice that at worst, and a margin. */
const boundMs = (Math.max(connectSeconds, querySeconds) + 2 + 1.5) * 1000;
const outages: OutageKind[] = ['refuse', 'reset', 'close', 'blackhole'];

let database: TestDatabase;
let proxy: OutageProxy;
const sessionSecret = 'the-secret-of-the-handbook-under-outages';
/** A session cookie the server would have issued, for an id no session has: only the database can say so. */
const unknownSession = sessionCookieCodec(sessionSecret).valueOf(newSessionId());
let server: Awaited<ReturnType<typeof startServerOnItsOwnStore>>;
/** One reader per outage, signed in beforehand, whose session no request has looked up (and so cached) yet. */
const readers = new Map<OutageKind, string>();

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  server = await startServerOnItsOwnStore({
    SESSION_SECRET: sessionSecret,
    DATABASE_URL: proxy.databaseUrl(target.href),
    DATABASE_CONNECT_TIMEOUT_SECONDS: String(connectSeconds),
    DATABASE_QUERY_TIMEOUT_SECONDS: String(querySeconds),
    LOG_LEVEL: 'fatal',
  });
  for (const kind of outages) readers.set(kind, await sessionCookieFor(server.baseUrl, `outage-${kind}@acme.dev`));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await database?.drop();
});

/** A request and how long its answer took; one that hangs fails the test after a while instead of the suite. */
async function timed(path: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, { headers, signal: AbortSignal.timeout(boundMs + 5000) });
  const body = await response.text();
  return { response, body, ms: performance.now() - started };
}

/** Nothing of the failure reaches the reader: no SQL, no parameters, no session id. */
function expectNothingLeaked(body: string, cookie: string) {
  expect(body).not.toMatch(/select|insert|update |from "|params|failed query|postgres|acme_session/i);
  expect(body).not.toContain(cookie.split('=')[1]);
}

describe('a PostgreSQL outage', () => {
  it.each(outages)(
    '%s: readers get a 503 to retry within the timeouts, and service resumes alone',
    async (kind) => {
      const cookie = readers.get(kind) ?? '';
      // A pooled connection just used, so the outage also catches connections already open.
      expect((await timed('/readyz')).response.status).toBe(200);
      await proxy.outage(kind);

      const [page, api, stranger, readiness, readinessWithCookie, liveness] = await Promise.all([
        timed('/firestore-ttl', { cookie, accept: 'text/html' }),
        timed('/api/threads?status=regular', { cookie, accept: 'application/json' }),
        timed('/firestore-ttl', { cookie: `acme_session=${unknownSession}`, accept: 'text/html' }),
        timed('/readyz'),
        // A probe that carries a reader's cookie (an uptime checker, a browser on our origin) needs no session either.
        timed('/readyz', { cookie }),
        timed('/healthz', { cookie }),
      ]);
      expect(liveness.response.status).toBe(200);
      expect(readinessWithCookie.response.status).toBe(503);
      expect(JSON.parse(readinessWithCookie.body)).toMatchObject({ checks: { database: 'unreachable' } });

      expect(page.response.status).toBe(503);
      expect(page.response.headers.get('retry-after')).toBe('5');
      expect(page.response.headers.get('content-type')).toContain('text/html');
      expect(page.body).toContain('The handbook is unavailable for a moment');
      expectNothingLeaked(page.body, cookie);

      expect(api.response.status).toBe(503);
      expect(api.response.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(api.body)).toEqual({
        error: {
          code: 'unavailable:database',
          message: 'The handbook is unavailable for a moment; try again shortly.',
        },
      });

      // An unknown session with our tag is looked up too: the reader is told to wait, not sent to sign in.
      expect(stranger.response.status).toBe(503);
      expect(readiness.response.status).toBe(503);
      expect(JSON.parse(readiness.body)).toMatchObject({ status: 'unavailable', checks: { database: 'unreachable' } });
      for (const answer of [page, api, stranger, readiness, readinessWithCookie, liveness])
        expect(answer.ms).toBeLessThan(boundMs);

      // Strangers still get the sign-in page, which needs no database; so does a cookie we never tagged.
      expect((await timed('/firestore-ttl', { accept: 'text/html' })).response.status).toBe(401);
      const forged = await timed('/firestore-ttl', { cookie: 'acme_session=made-up.session-id', accept: 'text/html' });
      expect(forged.response.status).toBe(401);

      await proxy.restore();
      let ready = 0;
      for (let attempt = 0; attempt < 100 && ready !== 200; attempt += 1) {
        ready = (await timed('/readyz')).response.status;
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready).toBe(200);
      expect((await timed('/firestore-ttl', { cookie, accept: 'text/html' })).response.status).toBe(200);
      const threads = await timed('/api/threads?status=regular', { cookie });
      expect(threads.response.status).toBe(200);
      expect(JSON.parse(threads.body)).toEqual({ threads: [], nextCursor: null });
    },
    30_000,
  );
});
