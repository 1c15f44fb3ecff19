import { describe, expect } from 'vitest';
import { hashSessionId, newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { findSessionByIdHash, touchSession } from '../server/src/store/sessions.js';
import { storeReaderSession } from '../server/test-support/reader-rows.js';
import { test } from './fixtures';
import {
  cookieAttributes,
  cookieValueFor,
  expectCleared,
  fetchPath,
  html,
  idHashOfCookie,
  plantCookie,
  sessionCookie,
  setCookieFor,
  signedInSession,
  withSession,
} from './gate-security';
import type { TestServer } from './harness';
import { CookieJar, signIn } from './sign-in';

test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

describe('session attacks', () => {
  async function storeSession(server: TestServer, sessionId: string, expiresAt: Date) {
    await storeReaderSession(server.store.db, sessionId, { expiresAt });
  }

  test('tamperedSessionCookieIsRefused', async ({ server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const [id = '', tag = ''] = sessionId.split('.');
    const otherId = (await signedInSession(server.baseUrl, 'other@acme.dev')).split('.')[0];
    const forgeries = [
      ['one character of the tag flipped', flip(sessionId)],
      ['one character of the id flipped', `${flip(id)}.${tag}`],
      ['the id without its tag', id],
      ["another session's tag", `${otherId}.${tag}`],
      ['the tag made with another secret', `${id}.${sessionCookieCodec('x'.repeat(32)).valueOf(id).split('.')[1]}`],
      ['garbage', 'garbage'],
      ['five kilobytes', 'a'.repeat(5_000)],
      ['the stored hash instead of the id, tagged', cookieValueFor(server, idHashOfCookie(sessionId))],
      ['the id with a trailing space', `${sessionId}%20`],
    ];
    for (const [what, forged] of forgeries) {
      const response = await fetchPath(server.baseUrl, '/faqs/', withSession(forged));
      expect(response.status, what).toBe(401);
    }
    expect((await fetchPath(server.baseUrl, '/healthz')).status).toBe(200);
    expect((await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId))).status).toBe(200);
  });

  test('expiredSessionIsRefusedAndDeleted', async ({ server }) => {
    const sessionId = newSessionId();
    await storeSession(server, sessionId, new Date(Date.now() - 1_000));
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(cookieValueFor(server, sessionId)));
    expect(response.status).toBe(401);
    expect(await findSessionByIdHash(server.store.db, { idHash: hashSessionId(sessionId) })).toBeUndefined();
  });

  test('idleSessionIsRefusedAndDeleted', async ({ server }) => {
    const sessionId = newSessionId();
    const idHash = hashSessionId(sessionId);
    await storeSession(server, sessionId, new Date(Date.now() + 3_600_000));
    await touchSession(server.store.db, {
      idHash,
      lastSeenAt: new Date(Date.now() - server.config.sessionIdleTimeoutMs - 1_000),
    });
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(cookieValueFor(server, sessionId)));
    expect(response.status).toBe(401);
    expect(await findSessionByIdHash(server.store.db, { idHash })).toBeUndefined();
  });

  test('sessionJustInsideIdleTimeoutStillWorks', async ({ server }) => {
    const sessionId = newSessionId();
    const idHash = hashSessionId(sessionId);
    await storeSession(server, sessionId, new Date(Date.now() + 3_600_000));
    await touchSession(server.store.db, {
      idHash,
      lastSeenAt: new Date(Date.now() - server.config.sessionIdleTimeoutMs + 60_000),
    });
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(cookieValueFor(server, sessionId)));
    expect(response.status).toBe(200);
  });

  test('sessionFixationPlantedCookieIsReplaced', async ({ server }) => {
    const attackerSession = await signedInSession(server.baseUrl, 'attacker@acme.dev');
    const victimJar = new CookieJar();
    plantCookie(victimJar, sessionCookie, attackerSession);
    const { response } = await signIn(server.baseUrl, { email: 'victim@acme.dev' }, victimJar);
    expect(response.status).toBe(303);

    const victimSession = victimJar.get(sessionCookie);
    expect(victimSession).toBeDefined();
    expect(victimSession).not.toBe(attackerSession);
    const me = await fetchPath(server.baseUrl, '/api/me', withSession(victimSession));
    expect(await me.json()).toMatchObject({ state: 'allowed', email: 'victim@acme.dev' });
    expect((await fetchPath(server.baseUrl, '/api/me', withSession(attackerSession))).status).toBe(401);
  });

  test('refusedAccountsSessionEndsWithinAnHour', async ({ server }) => {
    const { response: refused } = await signIn(server.baseUrl, { email: 'outsider@gmail.com' });
    const refusedCookie = setCookieFor(refused, sessionCookie) ?? '';
    expect(cookieAttributes(refusedCookie)).toContain('max-age=3600');
    const row = await findSessionByIdHash(server.store.db, {
      idHash: idHashOfCookie(refusedCookie.slice(`${sessionCookie}=`.length).split(';')[0] ?? ''),
    });
    expect(row?.email).toBe('outsider@gmail.com');
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const { response: allowed } = await signIn(server.baseUrl, { email: 'reader@acme.dev' });
    const lifetimeSeconds = server.config.sessionAbsoluteTimeoutMs / 1000;
    expect(cookieAttributes(setCookieFor(allowed, sessionCookie) ?? '')).toContain(`max-age=${lifetimeSeconds}`);
  });

  test('newSessionIdAtEverySignIn', async ({ server }) => {
    const first = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const second = await signedInSession(server.baseUrl, 'reader@acme.dev');
    expect(second).not.toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
  });
});

describe('logout CSRF', () => {
  const isSignedIn = async (baseUrl: string, sessionId: string) =>
    (await fetchPath(baseUrl, '/api/me', withSession(sessionId))).status === 200;

  test('logoutByGetDoesNothing', async ({ server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const response = await fetchPath(server.baseUrl, '/auth/logout', withSession(sessionId, html));
    expect(response.ok).toBe(false);
    expect(setCookieFor(response, sessionCookie)).toBeUndefined();
    expect(await isSignedIn(server.baseUrl, sessionId)).toBe(true);
  });

  test.for<[string, (baseUrl: string) => Record<string, string>]>([
    ['logoutFromForeignOriginIsRefused', () => ({ origin: 'https://evil.example' })],
    ['logoutWithoutOriginIsRefused', () => ({})],
    ['logoutFromOpaqueOriginIsRefused', () => ({ origin: 'null' })],
    ['logoutFromSiblingPortIsRefused', () => ({ origin: 'http://127.0.0.1:1' })],
    ['logoutWithOwnRefererButNoOriginIsRefused', (baseUrl: string) => ({ referer: `${baseUrl}/faqs/` })],
  ])('%s', async ([_name, headersFor], { server }) => {
    const { baseUrl } = server;
    const sessionId = await signedInSession(baseUrl, 'reader@acme.dev');
    const response = await fetchPath(baseUrl, '/auth/logout', withSession(sessionId, headersFor(baseUrl)), 'POST');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden:origin' } });
    expect(setCookieFor(response, sessionCookie)).toBeUndefined();
    expect(await isSignedIn(baseUrl, sessionId)).toBe(true);
  });

  test('logoutFromOwnOriginEndsSessionServerSide', async ({ server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const response = await fetchPath(
      server.baseUrl,
      '/auth/logout',
      withSession(sessionId, { origin: server.baseUrl }),
      'POST',
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('clear-site-data'), 'the cached chunks of the docs go too').toBe('"cache"');
    expectCleared(response, sessionCookie);
    expect((await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId))).status).toBe(401);
    expect(await findSessionByIdHash(server.store.db, { idHash: idHashOfCookie(sessionId) })).toBeUndefined();
  });

  test('logoutFormOnTheGateSendsTheBrowserHome', async ({ server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'x@gmail.com');
    const response = await fetchPath(
      server.baseUrl,
      '/auth/logout',
      withSession(sessionId, { ...html, origin: server.baseUrl }),
      'POST',
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expectCleared(response, sessionCookie);
    expect((await fetchPath(server.baseUrl, '/api/me', withSession(sessionId))).status).toBe(401);
  });
});
