import type { ApiErrorBody } from '@acme/contract';
import { expect } from 'vitest';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { readerApi } from './threads-api';
import { tokensApi, withToken } from './tokens-api';

/** Made-up bearer credentials count against a limit a minute per address (TOKEN_FAILURES_PER_MINUTE), set low here. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', TOKEN_FAILURES_PER_MINUTE: '5' } });

test('refuses an address that keeps sending made-up tokens before reading the store, and leaves sessions alone', async ({
  server,
}) => {
  const cookie = await sessionCookieFor(server.baseUrl, 'agent-owner@acme.dev');
  const valid = (await tokensApi(server.baseUrl, cookie).create('agent')).token;
  const llms = (token: string) => fetch(`${server.baseUrl}/llms.txt`, withToken(token));
  expect((await llms(valid)).status).toBe(200);

  const madeUp = (n: number) => `acme_pat_${String(n).padStart(59, 'x')}`;
  // A header that is no handbook credential (a staging gate's Basic, a proxy's own JWT) is not judged, nor counted.
  for (const authorization of ['Basic abc', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig']) {
    const foreign = await fetch(`${server.baseUrl}/llms.txt`, { headers: { authorization } });
    expect(foreign.status).toBe(401);
  }
  for (let n = 0; n < 5; n += 1) expect((await llms(madeUp(n))).status).toBe(401);

  const refused = await llms(madeUp(5));
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(((await refused.json()) as ApiErrorBody).error.code).toBe('rate_limited:token');
  // Refused before any read, on every route that takes one; but a token that exists goes on working, verified here
  // before or not (another reader's agent behind the same address, an office's NAT, after a restart).
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(madeUp(6)))).status).toBe(429);
  const fresh = (await tokensApi(server.baseUrl, cookie).create('another agent')).token;
  expect((await llms(fresh)).status).toBe(200);
  expect((await llms(valid)).status).toBe(200);
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(valid))).status).toBe(200);
  // A real token id under made-up secrets is read and refused, and limited on its own: the token itself still works.
  const sameIdMadeUpSecret = `${valid.slice(0, -8)}${valid.endsWith('xxxxxxxx') ? 'yyyyyyyy' : 'xxxxxxxx'}`;
  for (let n = 0; n < 5; n += 1) expect((await llms(sameIdMadeUpSecret)).status).toBe(401);
  expect((await llms(sameIdMadeUpSecret)).status).toBe(429);
  expect((await llms(valid)).status).toBe(200);

  // A signed-in reader's session is not a bearer credential: reading goes on, whatever a proxy adds in front of it.
  expect((await readerApi(server.baseUrl, cookie).call('GET', '/api/threads')).status).toBe(200);
  for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig']) {
    const page = await fetch(`${server.baseUrl}/faqs/`, { headers: { cookie, authorization, accept: 'text/html' } });
    expect(page.status).toBe(200);
    const search = await fetch(`${server.baseUrl}/api/search?q=ttl`, { headers: { cookie, authorization } });
    expect(search.status).toBe(200);
  }
});

test('shows a browser without a session the sign-in page, whatever a proxy put in Authorization', async ({
  server,
}) => {
  const page = await fetch(`${server.baseUrl}/faqs/`, {
    headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig', accept: 'text/html' },
  });
  expect(page.status).toBe(401);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(await page.text()).toContain('Sign in');
  // A script sending a bearer that is no handbook token is told so.
  const script = await fetch(`${server.baseUrl}/llms.txt`, {
    headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig' },
  });
  expect(script.status).toBe(401);
  expect(((await script.json()) as ApiErrorBody).error.code).toBe('unauthorized:token');
});
