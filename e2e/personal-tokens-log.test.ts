import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { type Instance, startTestInstance } from './instance-process';
import { grantOverHttp, tokenRequest } from './oauth-client';
import { sessionCookieFor } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/**
 * A personal token never reaches the log (issue 28, item 1): the compiled server, logging every request at info
 * level as JSON, is used with a token on every kind of route that accepts one, with a token in the query string, with
 * a forged one and after revocation; neither the token nor its secret appears in what it wrote. Nor do the code,
 * access token and refresh tokens of access granted through OAuth.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-token-log-'));
let instance: Instance | undefined;

afterAll(async () => {
  await instance?.stop();
  rmSync(workDirectory, { recursive: true, force: true });
});

test('tokensNeverAppearInTheAccessOrErrorLog', { timeout: 120_000 }, async () => {
  instance = await startTestInstance(workDirectory, { LOG_LEVEL: 'debug' }, { name: 'server' });
  const api = tokensApi(instance.url, await sessionCookieFor(instance.url, 'logged@acme.dev'));
  const { token, id } = await api.create('log check');
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const requests: Array<[string, RequestInit]> = [
    ['/api/search?q=ttl', withToken(token)],
    ['/llms.txt', withToken(token)],
    ['/firestore-ttl.md', withToken(token)],
    [
      '/mcp',
      withToken(token, { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }),
    ],
    [`/api/search?q=ttl&access_token=${token}`, {}],
    ['/api/search?q=ttl', withToken(`${token.slice(0, -3)}abc`)],
    ['/api/search?q=ttl', { headers: { authorization: `Basic ${token}` } }],
  ];
  for (const [address, init] of requests) await fetch(`${instance.url}${address}`, init);
  expect((await api.revoke(id)).status).toBe(204);
  await fetch(`${instance.url}/api/search?q=ttl`, withToken(token));
  const granted = await grantOverHttp(instance.url, 'logged-agent@acme.dev');
  const refresh = { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: granted.refresh };
  const renewed = await tokenRequest(instance.url, refresh);
  const mcp = { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };
  expect((await fetch(`${instance.url}/mcp`, withToken(renewed.body.access_token ?? '', mcp))).status).toBe(200);
  // Replayed, the first refresh token revokes the grant: the refusal is logged too, without the token.
  await tokenRequest(instance.url, refresh);
  await fetch(`${instance.url}/mcp`, withToken(granted.access, mcp));
  await instance.stop();
  const log = readFileSync(path.join(workDirectory, 'server.log'), 'utf8');
  expect(log).toContain('"path":"/llms.txt"');
  expect(log).not.toContain(token.slice('acme_pat_'.length + 16));
  expect(log).not.toContain(token);
  const secrets = [
    granted.code,
    granted.access,
    granted.refresh,
    renewed.body.access_token,
    renewed.body.refresh_token,
  ];
  for (const secret of secrets) expect(log).not.toContain(String(secret).slice(-43));
  expect(log).toContain('"path":"/oauth/token"');
});
