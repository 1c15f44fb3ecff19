import { describe, expect } from 'vitest';
import { findSessionByIdHash } from '../server/src/store/sessions.js';
import { test as base } from './fixtures';
import { expectCleared, html, idHashOfCookie, sessionCookie, signedInSession, withSession } from './gate-security';
import type { TestServer } from './harness';
import { SignInPages } from './pages/sign-in-pages';

const test = base.extend('signInPages', async ({ page }) => new SignInPages(page));

test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

// The server starts here, within the hooks' time rather than the first test's.
test.beforeAll(async ({ server }) => {
  expect((await fetch(new URL('/healthz', server.baseUrl))).status).toBe(200);
});

/** Bodies a sign-out may come with: none of them is read, so none of them may keep a person signed in. */
const bodies: Array<
  [what: string, contentType: string | undefined, body: string | Uint8Array<ArrayBuffer> | undefined]
> = [
  ["an empty form, as the gate page's Sign out button sends it", 'application/x-www-form-urlencoded', ''],
  ['a form with fields', 'application/x-www-form-urlencoded', 'reason=done&then=%2F'],
  ['a plain-text form', 'text/plain', 'reason=done'],
  [
    'a multipart form',
    'multipart/form-data; boundary=x',
    '--x\r\ncontent-disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n',
  ],
  ['an empty JSON body', 'application/json', ''],
  ['broken JSON', 'application/json', '{"reason":'],
  ['XML', 'application/xml', '<signOut/>'],
  ['bytes without a content type', undefined, new Uint8Array([1, 2, 3])],
  ['no body at all', undefined, undefined],
];

function signOut(
  server: TestServer,
  options: {
    contentType?: string | undefined;
    body?: string | Uint8Array<ArrayBuffer> | undefined;
    headers?: Record<string, string>;
  },
) {
  const headers: Record<string, string> = { origin: server.baseUrl, ...options.headers };
  if (options.contentType) headers['content-type'] = options.contentType;
  return fetch(new URL('/auth/logout', server.baseUrl), {
    method: 'POST',
    headers,
    body: options.body,
    redirect: 'manual',
  });
}

const sessionIsGone = async (server: TestServer, sessionId: string) =>
  (await findSessionByIdHash(server.store.db, { idHash: idHashOfCookie(sessionId) })) === undefined;

describe('signing out ignores the body', () => {
  test.for(bodies)('a fetch with %s ends the session with a 204', async ([, contentType, body], { server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const response = await signOut(server, {
      contentType,
      body,
      headers: withSession(sessionId, { accept: 'application/json' }),
    });
    expect(response.status, await response.clone().text()).toBe(204);
    expectCleared(response, sessionCookie);
    expect(await sessionIsGone(server, sessionId)).toBe(true);
  });

  test.for(bodies)('a browser form with %s is sent back to its page', async ([, contentType, body], { server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'you@gmail.com');
    const response = await fetch(new URL('/auth/logout?next=%2Ffaqs%2F', server.baseUrl), {
      method: 'POST',
      headers: {
        ...withSession(sessionId, { ...html, origin: server.baseUrl }),
        ...(contentType && { 'content-type': contentType }),
      },
      body,
      redirect: 'manual',
    });
    expect(response.status, await response.clone().text()).toBe(303);
    expect(response.headers.get('location')).toBe('/faqs/');
    expectCleared(response, sessionCookie);
    expect(await sessionIsGone(server, sessionId)).toBe(true);
  });

  test.for(bodies)('without a session, %s is a 204', async ([, contentType, body], { server }) => {
    const response = await signOut(server, { contentType, body });
    expect(response.status, await response.clone().text()).toBe(204);
  });
});

describe('a refused sign-out answers in the API error shape', () => {
  test('signOutFormFromAnotherSiteIsRefused: a cross-site form cannot sign a person out', async ({ server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const response = await signOut(server, {
      contentType: 'application/x-www-form-urlencoded',
      body: '',
      headers: withSession(sessionId, { ...html, origin: 'https://evil.example' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden:origin' } });
    expect(await sessionIsGone(server, sessionId)).toBe(false);
  });

  test('returnPathOffSiteIsNotFollowed: the redirect stays on the handbook', async ({ server }) => {
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const sessionId = await signedInSession(server.baseUrl, 'you@gmail.com');
      const response = await fetch(new URL(`/auth/logout?next=${encodeURIComponent(next)}`, server.baseUrl), {
        method: 'POST',
        headers: withSession(sessionId, { ...html, origin: server.baseUrl }),
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location'), next).toBe('/');
    }
  });

  test.for<[string, Record<string, string>, string | Uint8Array<ArrayBuffer>]>([
    ['a content type that does not parse', { 'content-type': 'text/' }, 'x'],
    [
      'a body far larger than any form of ours',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a'.repeat(1 << 20),
    ],
  ])('%s is a 4xx, not a 500', async ([, headers, body], { server }) => {
    const sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
    const response = await signOut(server, { body, headers: withSession(sessionId, headers) });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_request:input', message: expect.any(String) } });
  });
});

describe('in the browser', () => {
  test("the gate page's Sign out button signs a refused person out", async ({ server, page, context, signInPages }) => {
    await page.goto(`${server.baseUrl}/faqs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('you@gmail.com');
    await signInPages.notAllowedNotice.waitFor();
    const session = (await context.cookies()).find((cookie) => cookie.name === sessionCookie);
    expect(session?.value).toBeTruthy();

    const signedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/logout');
    await page.getByTestId('gate-logout').click();
    expect((await signedOut).status()).toBe(303);
    // "Logout signs out and reloads": the same page, now offering to sign in.
    await page.getByRole('link', { name: 'Login with Google' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/faqs/');
    expect(await signInPages.notAllowedNotice.count()).toBe(0);
    expect((await context.cookies()).find((cookie) => cookie.name === sessionCookie)).toBeUndefined();
    expect(await sessionIsGone(server, session?.value ?? '')).toBe(true);
    const me = await page.evaluate(async () => (await fetch('/api/me')).status);
    expect(me).toBe(401);
  });
});
