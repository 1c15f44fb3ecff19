import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { pageHooksTheLaneKnows } from '../server/src/gate/fast-lane.js';
import { inMemoryDataDirectory, openStore, type Store } from '../server/src/store/database.js';
import { html, sessionCookie, signedInSession } from './gate-security';
import { listSiteFiles, siteBuildDirectory, startServer, type TestServer } from './harness';

const mainScript = [...listSiteFiles(siteBuildDirectory)].find((file) =>
  /^\/assets\/js\/main\.[0-9a-f]+\.js$/.test(file),
);
const mainScriptPath = () => mainScript ?? '/assets/js/main.js';

/**
 * The fast lane (gate/fast-lane.ts) answers pages, assets and the sign-in answer before Fastify; these answers must
 * be exactly Fastify's. Two servers on one store, one with the lane and one without, are asked the same requests and
 * compared byte for byte: status, every header but the connection's own, and the body.
 */
type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function rawRequest(baseUrl: string, path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<RawAnswer>((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = response.headers;
        resolve({ status: response.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * The hooks Fastify runs for a page (the catch-all route at the top of the route tree, GET and HEAD), read from its
 * own listing of the routes and their hooks, each as `hook: function name` ("anonymous" for an unnamed function).
 */
function pageRouteHooks(app: FastifyInstance): string[] {
  const hooks = new Set<string>();
  for (const method of ['GET', 'HEAD']) {
    const lines = app.printRoutes({ method, includeHooks: true, commonPrefix: false }).split('\n');
    const route = lines.findIndex((line) => line === `└── * (${method})` || line === `├── * (${method})`);
    if (route === -1) throw new Error(`no page route (${method}) in the route listing`);
    for (const line of lines.slice(route + 1)) {
      const listed = /^[│ ] {3}• \((\w+)\) (\[.*\])$/.exec(line);
      if (!listed) break;
      for (const name of JSON.parse(listed[2] ?? '[]') as string[])
        hooks.add(`${listed[1]}: ${name.replace(/\(\)$/, '')}`);
    }
  }
  return [...hooks];
}

/** The page hooks the lane does not know (pageHooksTheLaneKnows). */
const unknownPageHooks = (app: FastifyInstance) =>
  pageRouteHooks(app).filter((entry) => {
    const [hook = '', name = ''] = entry.split(': ');
    return pageHooksTheLaneKnows[hook]?.[name] === undefined;
  });

const sharedSecret = 'one-secret-for-both-servers-of-the-handbook';
/** A cookie both servers issue the tag of, for an id no session has: it takes a store read to refuse. */
const unknownSession = sessionCookieCodec(sharedSecret).valueOf(newSessionId());

describe('the fast lane answers as Fastify does', () => {
  let store: Store;
  let withLane: TestServer;
  let withoutLane: TestServer;
  let cookie: string;
  let etag = '';

  beforeAll(async () => {
    expect(mainScript, 'the build has a main script').toBeDefined();
    store = await openStore({ dataDirectory: inMemoryDataDirectory });
    // One secret for both, as for any instances on one store: each honours the other's session cookies.
    const shared = { SESSION_SECRET: sharedSecret };
    withLane = await startServer(shared, { store });
    withoutLane = await startServer(shared, { store, fastLane: false });
    cookie = `${sessionCookie}=${await signedInSession(withLane.baseUrl, 'reader@acme.dev')}`;
    const first = await rawRequest(withLane.baseUrl, page, { ...html, cookie, 'accept-encoding': 'gzip' });
    etag = String(first.headers.etag);
  });
  afterAll(async () => {
    await withLane?.close();
    await withoutLane?.close();
    await store?.close();
  });

  const page = '/firestore-ttl';
  const signedIn = (headers: Record<string, string>) => () => ({ ...headers, cookie });
  const cases: Array<[string, string, () => Record<string, string>, string?]> = [
    ['a page, gzip', page, signedIn({ ...html, 'accept-encoding': 'gzip' })],
    ['a page, brotli first', `${page}?from=search`, signedIn({ ...html, 'accept-encoding': 'br, gzip' })],
    ['a page, no encoding', page, signedIn(html)],
    ['a page, HEAD', page, signedIn({ ...html, 'accept-encoding': 'gzip' }), 'HEAD'],
    ['the main script', mainScriptPath(), signedIn({ 'accept-encoding': 'gzip, deflate, br' })],
    ['a page, revalidated, changed', page, signedIn({ 'if-none-match': '"x"', 'accept-encoding': 'gzip' })],
    ['a page, revalidated, unchanged', page, () => ({ cookie, 'if-none-match': etag, 'accept-encoding': 'gzip' })],
    ['a page, revalidated weakly', page, () => ({ cookie, 'if-none-match': `"a", W/${etag}` })],
    ['a missing page', '/no-such-page', signedIn({ ...html, 'accept-encoding': 'gzip' })],
    ['a page, the other spelling', `${page}/`, signedIn(html)],
    ['the sign-in page', `${page}?q="><b>`, () => ({ ...html, 'accept-encoding': 'gzip' })],
    ['the sign-in page, HEAD', page, () => html, 'HEAD'],
    ['JSON 401', page, () => ({ accept: 'application/json' })],
    ['401 for a script', mainScriptPath(), () => ({})],
    ['a foreign cookie', page, () => ({ ...html, cookie: `${sessionCookie}=${'x'.repeat(43)}` })],
    ['a cookie we tagged, naming no session', page, () => ({ ...html, cookie: `${sessionCookie}=${unknownSession}` })],
    ['an API route', '/api/me', signedIn({ accept: 'application/json' })],
    ['health', '/healthz', () => ({})],
    ['broken percent-encoding', '/%E0%A4%A', signedIn({ ...html, 'accept-encoding': 'gzip' })],
    ['broken percent-encoding, stranger', '/%E0%A4%A?x=%ZZ', () => html],
    ['dot segments', '/docs/../../etc/passwd', signedIn(html)],
    ['a NUL byte', '/firestore-ttl%00', signedIn(html)],
    ['an encoded page address', '/firestore%2Dttl', signedIn({ ...html, 'accept-encoding': 'gzip' })],
    ['a long cookie', page, () => ({ ...html, cookie: `${sessionCookie}=${'y'.repeat(500)}` })],
  ];

  it.each(cases)('%s', async (_name, path, headers, method = 'GET') => {
    // Twice: the first request of a session may need the store, which only Fastify's path reads.
    await rawRequest(withLane.baseUrl, path, headers(), method);
    const [fast, plain] = await Promise.all([
      rawRequest(withLane.baseUrl, path, headers(), method),
      rawRequest(withoutLane.baseUrl, path, headers(), method),
    ]);
    expect(fast.status).toBe(plain.status);
    expect(fast.headers).toEqual(plain.headers);
    expect(fast.body.equals(plain.body)).toBe(true);
  });

  it('answered the pages, the script, a 304 and the sign-in answers itself, and left the rest to Fastify', async () => {
    const before = withLane.app.fastLaneAnswers();
    const headers = { ...html, 'accept-encoding': 'gzip', cookie };
    await rawRequest(withLane.baseUrl, page, headers);
    await rawRequest(withLane.baseUrl, mainScriptPath(), headers);
    await rawRequest(withLane.baseUrl, page, html);
    await rawRequest(withLane.baseUrl, page, { ...headers, 'if-none-match': etag });
    expect(withLane.app.fastLaneAnswers() - before).toBe(4);
    for (const [path, extra] of [
      ['/no-such-page', headers],
      [`${page}/`, headers],
      ['/healthz', {}],
      ['/api/me', headers],
    ] as const) {
      await rawRequest(withLane.baseUrl, path, extra);
    }
    expect(withLane.app.fastLaneAnswers() - before).toBe(4);
    expect(withoutLane.app.fastLaneAnswers()).toBe(0);
  });

  it('knows every hook Fastify runs for a page: a hook added to the pages fails here until the lane takes it up', async () => {
    expect(pageRouteHooks(withLane.app)).toEqual(
      expect.arrayContaining(['onRequest: resolveAccess', 'preHandler: refuseUntilIndexed']),
    );
    expect(unknownPageHooks(withLane.app)).toEqual([]);
    // The same reading sees a new hook on the pages, named or not.
    const other = Fastify();
    other.addHook('onRequest', async function rewriteSomething() {});
    other.addHook('onSend', async () => {});
    other.route({ method: ['GET', 'HEAD'], url: '/*', handler: async () => 'page' });
    await other.ready();
    expect(unknownPageHooks(other)).toEqual(['onRequest: rewriteSomething', 'onSend: anonymous']);
    await other.close();
  });

  it('a reader who logs out gets the sign-in page on the next request, lane or not', async () => {
    const own = `${sessionCookie}=${await signedInSession(withLane.baseUrl, 'leaver@acme.dev')}`;
    const headers = { ...html, 'accept-encoding': 'gzip', cookie: own };
    expect((await rawRequest(withLane.baseUrl, page, headers)).status).toBe(200);
    expect((await rawRequest(withLane.baseUrl, page, headers)).status).toBe(200);
    const logout = await fetch(new URL('/auth/logout', withLane.baseUrl), {
      method: 'POST',
      headers: { cookie: own, origin: withLane.baseUrl },
      redirect: 'manual',
    });
    expect(logout.status).toBe(204);
    expect((await rawRequest(withLane.baseUrl, page, headers)).status).toBe(401);
  });
});
