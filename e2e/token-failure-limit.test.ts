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
  for (let n = 0; n < 4; n += 1) expect((await llms(madeUp(n))).status).toBe(401);
  // A header that is no bearer credential at all counts too.
  const notBearer = await fetch(`${server.baseUrl}/llms.txt`, { headers: { authorization: 'Basic abc' } });
  expect(notBearer.status).toBe(401);

  const refused = await llms(madeUp(5));
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(((await refused.json()) as ApiErrorBody).error.code).toBe('rate_limited:token');
  // Refused before any read, on every route that takes one, except a token this server verified lately: another
  // reader's agent behind the same address (an office's NAT) goes on working.
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(madeUp(6)))).status).toBe(429);
  const fresh = (await tokensApi(server.baseUrl, cookie).create('another agent')).token;
  expect((await llms(fresh)).status).toBe(429);
  expect((await llms(valid)).status).toBe(200);
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(valid))).status).toBe(200);
  // The verified token's id under a made-up secret is as made up as any other credential.
  const sameIdMadeUpSecret = `${valid.slice(0, -8)}${valid.endsWith('xxxxxxxx') ? 'yyyyyyyy' : 'xxxxxxxx'}`;
  expect((await llms(sameIdMadeUpSecret)).status).toBe(429);

  // A signed-in reader's session is not a bearer credential: reading goes on.
  expect((await readerApi(server.baseUrl, cookie).call('GET', '/api/threads')).status).toBe(200);
});
