import { describe, expect } from 'vitest';
import { readerKeyOf } from '../server/src/auth/reader-identity.js';
import { mintPersonalToken } from '../server/src/auth/tokens/personal-token.js';
import { createPersonalToken, findPersonalToken } from '../server/src/store/personal-tokens.js';
import { test } from './fixtures';
import { registerClient } from './oauth-client';
import { sessionCookieFor } from './sign-in';
import { readerApi } from './threads-api';
import { tokensApi, withToken } from './tokens-api';

/** Personal access tokens (issue 28, item 1): made, listed and revoked with a session; used by scripts. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', SEARCH_REQUESTS_PER_MINUTE: '40' } });

const day = 24 * 60 * 60 * 1000;
const askedByScript = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });

// The file's server and session are made once, before the first test's clock starts.
test.beforeAll(async ({ sessionCookie }) => {
  expect(sessionCookie).toContain('acme_session=');
});

describe('the token API', () => {
  test('makes a token shown once, then lists it without its secret, with its created, expiry and last use', async ({
    server,
    sessionCookie,
  }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    const before = Date.now();
    const created = await api.create('laptop agent');

    expect(created.token).toMatch(/^acme_pat_/);
    expect(new Date(created.expiresAt).getTime() - before).toBeGreaterThanOrEqual(30 * day - 60_000);
    expect(new Date(created.expiresAt).getTime() - before).toBeLessThanOrEqual(30 * day + 60_000);
    const listResponse = await api.call('GET', '/api/tokens');
    const listedText = await listResponse.clone().text();
    expect(listedText).not.toContain(created.token.slice(-43));
    const listed = (await api.list()).tokens.find((token) => token.id === created.id);
    expect(listed).toMatchObject({ name: 'laptop agent', expiresAt: created.expiresAt, lastUsedAt: null });
    const stored = await findPersonalToken(server.store.db, { id: created.id });
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(-43));
  });

  test.for([
    ['no name', { expiresInDays: 30 }],
    ['an empty name', { name: '   ', expiresInDays: 30 }],
    ['a name of NULs only', { name: '\0\0', expiresInDays: 30 }],
    ['zero days', { name: 'x', expiresInDays: 0 }],
    ['more than a year', { name: 'x', expiresInDays: 366 }],
    ['a fraction of a day', { name: 'x', expiresInDays: 1.5 }],
    ['a name of 101 characters', { name: 'x'.repeat(101) }],
    ['an unknown field', { name: 'x', scopes: ['write'] }],
  ])('refuses a token request with %s as 400 bad_request:token', async ([, body], { server, sessionCookie }) => {
    const response = await tokensApi(server.baseUrl, sessionCookie).call('POST', '/api/tokens', body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request:token');
  });

  test.for([
    ['a right-to-left override', 'deploy\u202egpj.exe'],
    ['a left-to-right embedding', '\u202aci'],
    ['a first-strong isolate', 'ci\u2068bot\u2069'],
    ['a zero-width space', 'lap\u200btop'],
    ['a right-to-left mark', 'laptop\u200f'],
    ['a byte order mark at its start', '\ufefflaptop'],
  ])('refuses a token name with %s, never shown to its reader', async ([, name], { server, sessionCookie }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    const response = await api.call('POST', '/api/tokens', { name });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 'bad_request:token',
        message: 'name: name must not contain control or invisible characters (such as a right-to-left override)',
      },
    });
    expect((await api.list()).tokens.map((token) => token.name)).not.toContain(name);
  });

  test("refuses an OAuth client's name with a right-to-left override the same way", async ({ server }) => {
    const { response, body } = await registerClient(server.baseUrl, {
      client_name: 'Claude\u202eedoC',
      redirect_uris: ['http://127.0.0.1:9/callback'],
    });
    expect(response.status).toBe(400);
    expect(body).toMatchObject({
      error: 'invalid_client_metadata',
      error_description:
        'client_name: client_name must not contain control or invisible characters (such as a right-to-left override)',
    });
  });

  test('accepts a year at most', async ({ server, sessionCookie }) => {
    const created = await tokensApi(server.baseUrl, sessionCookie).create('yearly', 365);
    expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(364 * day);
  });

  test('aTokenCannotMakeListOrRevokeTokens', async ({ server, sessionCookie }) => {
    const { token, id } = await tokensApi(server.baseUrl, sessionCookie).create();
    const asScript = (method: string, path: string, body?: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        ...withToken(token, { method, headers: { origin: server.baseUrl, 'content-type': 'application/json' } }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await asScript('GET', '/api/tokens')).status).toBe(401);
    // A token only reads: a write is refused as such (403), never as a session to sign in with.
    expect((await asScript('POST', '/api/tokens', { name: 'more' })).status).toBe(403);
    expect((await asScript('DELETE', `/api/tokens/${id}`)).status).toBe(403);
    expect((await tokensApi(server.baseUrl, sessionCookie).list()).tokens.map((kept) => kept.id)).toContain(id);
  });

  test('aTokenWriteFromAnotherSiteIsRefused', async ({ server, sessionCookie }) => {
    const response = await fetch(`${server.baseUrl}/api/tokens`, {
      method: 'POST',
      headers: { cookie: sessionCookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stolen' }),
    });
    expect(response.status).toBe(403);
  });

  test("aReaderCannotRevokeAnotherReader'sToken", async ({ server, sessionCookie }) => {
    const theirs = await tokensApi(server.baseUrl, sessionCookie).create('theirs');
    const other = tokensApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'other@acme.dev'));
    expect((await other.revoke(theirs.id)).status).toBe(404);
    expect((await other.list()).tokens).toEqual([]);
    const stillWorks = await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(theirs.token));
    expect(stillWorks.status).toBe(200);
  });
});

describe('a token used by a script', () => {
  test('reads search, askAi and its own threads without a cookie or an Origin', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
    const threadId = await readerApi(server.baseUrl, sessionCookie).newThread();

    const search = await fetch(`${server.baseUrl}/api/search?q=firestore%20ttl`, withToken(token));
    expect(search.status).toBe(200);
    expect(((await search.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const ask = await fetch(
      `${server.baseUrl}/api/askAi`,
      withToken(token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [askedByScript('How long do Firestore TTL deletions take?')] }),
      }),
    );
    expect(ask.status).toBe(200);
    expect(((await ask.json()) as { data: string }).data.length).toBeGreaterThan(0);
    const threads = await fetch(`${server.baseUrl}/api/threads`, withToken(token));
    expect(((await threads.json()) as { threads: { id: string }[] }).threads.map((thread) => thread.id)).toContain(
      threadId,
    );
    expect((await fetch(`${server.baseUrl}/api/threads/${threadId}`, withToken(token))).status).toBe(200);
  });

  test('marks the token as used', async ({ server, sessionCookie }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    const { token, id } = await api.create();
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token))).status).toBe(200);
    await expect
      .poll(async () => (await api.list()).tokens.find((listed) => listed.id === id)?.lastUsedAt)
      .not.toBeNull();
  });

  test('aTokenCannotWriteThreads', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
    const threadId = await readerApi(server.baseUrl, sessionCookie).newThread();
    const json = { 'content-type': 'application/json' };
    const create = await fetch(
      `${server.baseUrl}/api/threads`,
      withToken(token, { method: 'POST', headers: json, body: '{}' }),
    );
    expect(create.status).toBe(403);
    expect(((await create.json()) as { error: { code: string } }).error.code).toBe('forbidden:token_read_only');
    const rename = await fetch(
      `${server.baseUrl}/api/threads/${threadId}`,
      withToken(token, { method: 'PATCH', headers: json, body: '{"title":"x"}' }),
    );
    expect(rename.status).toBe(403);
    expect(
      (await fetch(`${server.baseUrl}/api/threads/${threadId}`, withToken(token, { method: 'DELETE' }))).status,
    ).toBe(403);
    // Nothing was written: the thread is still there, untitled.
    expect((await readerApi(server.baseUrl, sessionCookie).call('GET', `/api/threads/${threadId}`)).status).toBe(200);
  });

  test("aTokenNeverReachesAnotherReader'sThreads", async ({ server, sessionCookie }) => {
    const otherCookie = await sessionCookieFor(server.baseUrl, 'neighbour@acme.dev');
    const theirThread = await readerApi(server.baseUrl, otherCookie).newThread();
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
    expect((await fetch(`${server.baseUrl}/api/threads/${theirThread}`, withToken(token))).status).toBe(404);
    const mine = (await (await fetch(`${server.baseUrl}/api/threads`, withToken(token))).json()) as {
      threads: { id: string }[];
    };
    expect(mine.threads.map((thread) => thread.id)).not.toContain(theirThread);
  });

  test('aTokenIsNeverServedAnHtmlPage: a page address gives it the page as Markdown', async ({
    server,
    sessionCookie,
  }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
    const page = await fetch(`${server.baseUrl}/faqs/`, withToken(token, { headers: { accept: 'text/html' } }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await page.text();
    expect(text).not.toContain('<article');
    expect(text).not.toContain('<html');
    const script = await fetch(`${server.baseUrl}/assets/js/main.js`, withToken(token));
    expect(script.status).toBe(401);
  });

  test('aTokenIsNeverAcceptedInTheQueryString', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
    for (const name of ['access_token', 'token', 'authorization']) {
      const response = await fetch(`${server.baseUrl}/api/search?q=ttl&${name}=${token}`);
      expect(response.status).toBe(401);
    }
  });

  test('aRevokedTokenIsRefusedOnItsNextRequest', async ({ server, sessionCookie }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    const { token, id } = await api.create();
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token))).status).toBe(200);
    expect((await api.revoke(id)).status).toBe(204);

    const refused = await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized:token');
    expect((await api.list()).tokens.map((listed) => listed.id)).not.toContain(id);
  });

  test('anExpiredTokenIsRefused', async ({ server }) => {
    const identity = { issuer: server.config.identityProvider.issuer, subject: 'expired-reader' };
    const minted = mintPersonalToken();
    await createPersonalToken(server.store.db, {
      ...identity,
      id: minted.id,
      reader: readerKeyOf(identity),
      email: 'expired@acme.dev',
      emailVerified: true,
      hostedDomain: 'acme.dev',
      name: 'old script',
      secretHash: minted.secretHash,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(minted.token))).status).toBe(401);
  });

  test.for([
    ['another scheme', (token: string) => `Basic ${token}`],
    ['a forged secret', (token: string) => `Bearer ${token.slice(0, -4)}AAAA`],
    ['a made-up token', () => `Bearer acme_pat_${'x'.repeat(59)}`],
    ['two tokens', (token: string) => `Bearer ${token} ${token}`],
    ['a bare Bearer', () => 'Bearer'],
    ['a NUL-padded token', (token: string) => `Bearer ${token}%00`],
  ] as const satisfies ReadonlyArray<readonly [string, (token: string) => string]>)(
    'refuses %s with 401, never 500',
    async ([, header], { server, sessionCookie }) => {
      const { token } = await tokensApi(server.baseUrl, sessionCookie).create();
      const response = await fetch(`${server.baseUrl}/api/search?q=ttl`, { headers: { authorization: header(token) } });
      expect(response.status).toBe(401);
    },
  );

  test('aTokenSharesItsReadersSearchLimitWithTheBrowser', async ({ server }) => {
    const cookie = await sessionCookieFor(server.baseUrl, 'limited@acme.dev');
    const { token } = await tokensApi(server.baseUrl, cookie).create();
    for (let index = 0; index < 39; index += 1) {
      expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, { headers: { cookie } })).status).toBe(200);
    }
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token))).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token))).status).toBe(429);
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, { headers: { cookie } })).status).toBe(429);
  });
});
