import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CreatedToken } from '@acme/contract';
import { afterAll, expect } from 'vitest';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/** A token acts for its reader only while the access policy allows the reader (issue 28, item 1). */
const directory = mkdtempSync(path.join(tmpdir(), 'handbook-token-policy-'));
const policyFile = path.join(directory, 'policy.json');
writeFileSync(policyFile, JSON.stringify({ domains: ['acme.dev', 'acme.io', 'acme-labs.dev'], addresses: [] }));
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', ACCESS_POLICY_FILE: policyFile } });
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let labs: CreatedToken;
let dev: CreatedToken;
test.beforeAll(async ({ server }) => {
  labs = await tokensApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'script@acme-labs.dev')).create();
  dev = await tokensApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'script@acme.dev')).create();
});

test('aTokenWhoseReaderThePolicyNowRefusesIsRefusedAtOnce', async ({ server }) => {
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(labs.token))).status).toBe(200);

  await writeFile(policyFile, JSON.stringify({ domains: ['acme.dev', 'acme.io'], addresses: [] }));
  // The file is stat'ed at most once a second; a distinct mtime makes the change visible whatever the clock does.
  const mtime = new Date(Date.now() + 10_000);
  await utimes(policyFile, mtime, mtime);
  await new Promise((resolve) => setTimeout(resolve, 1_100));

  const refused = await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(labs.token));
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden:access');
  const mcp = await fetch(
    `${server.baseUrl}/mcp`,
    withToken(labs.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    }),
  );
  expect(mcp.status).toBe(403);
  expect((await fetch(`${server.baseUrl}/firestore-ttl.md`, withToken(labs.token))).status).toBe(403);
  expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(dev.token))).status).toBe(200);
});

test('aBlockedAddressLosesItsTokenAndItsSessionAtOnceWhileItsDomainStaysAllowed', async ({ server }) => {
  const leaver = await sessionCookieFor(server.baseUrl, 'leaver@acme.dev');
  const leaverToken = await tokensApi(server.baseUrl, leaver).create('leaver script');
  const colleague = await sessionCookieFor(server.baseUrl, 'colleague@acme.dev');
  const search = (init: RequestInit) => fetch(`${server.baseUrl}/api/search?q=ttl`, init);
  expect((await search(withToken(leaverToken.token))).status).toBe(200);

  await writeFile(
    policyFile,
    JSON.stringify({ domains: ['acme.dev', 'acme.io'], addresses: [], blocked: ['Leaver@Acme.dev'] }),
  );
  const mtime = new Date(Date.now() + 20_000);
  await utimes(policyFile, mtime, mtime);
  await new Promise((resolve) => setTimeout(resolve, 1_100));

  expect((await search(withToken(leaverToken.token))).status).toBe(403);
  expect((await search({ headers: { cookie: leaver } })).status).toBe(403);
  const page = await fetch(`${server.baseUrl}/firestore-ttl`, { headers: { cookie: leaver, accept: 'text/html' } });
  expect(page.status).toBe(403);
  expect(await page.text()).not.toContain('TTL policy');
  expect((await search({ headers: { cookie: colleague } })).status).toBe(200);
  expect((await search(withToken(dev.token))).status).toBe(200);
});
