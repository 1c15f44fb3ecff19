import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiErrorBody } from '@acme/contract';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, expect } from 'vitest';
import { test } from './fixtures';
import {
  grantOverHttp,
  InMemoryOAuthProvider,
  listToolsOverHttp as listTools,
  startCallbackServer,
  tokenRequest,
} from './oauth-client';
import { SignInPages } from './pages/sign-in-pages';
import { readerApi } from './threads-api';
import { tokensApi, withToken } from './tokens-api';

/** Adding the handbook to a coding agent by its URL alone: the MCP authorization flow (issue 28, item 2). */
const directory = mkdtempSync(path.join(tmpdir(), 'handbook-oauth-'));
const policyFile = path.join(directory, 'policy.json');
const everyone = { domains: ['acme.dev', 'acme.io', 'acme-labs.dev'], addresses: [] };
writeFileSync(policyFile, JSON.stringify(everyone));
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', ACCESS_POLICY_FILE: policyFile } });
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function writePolicy(policy: typeof everyone) {
  await writeFile(policyFile, JSON.stringify(policy));
  // The file is stat'ed at most once a second; a distinct mtime makes the change visible whatever the clock does.
  const mtime = new Date(Date.now() + 10_000 * (policy === everyone ? 2 : 1));
  await utimes(policyFile, mtime, mtime);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
}

test('anAgentAddedByUrlAloneHasTheReaderSignInAndAllowThenUsesTheTools', async ({ server, page }) => {
  const callback = await startCallbackServer();
  const provider = new InMemoryOAuthProvider(callback.redirectUrl, 'Claude <b>Code</b>');
  const mcpUrl = new URL('/mcp', server.baseUrl);
  const unauthorized = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await expect(
    unauthorized.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrl;
  if (!authorizationUrl) throw new Error('The client did not start the authorization.');
  expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.baseUrl}/oauth/authorize`);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.baseUrl}/mcp`);

  await page.goto(authorizationUrl.href);
  const gate = new SignInPages(page);
  await gate.clickLogin();
  await gate.submitIdentity('agent-reader@acme.dev');
  await page.getByTestId('oauth-consent').waitFor();
  expect(await page.getByTestId('oauth-client-name').textContent()).toBe('Claude <b>Code</b>');
  expect(await page.locator('b').count()).toBe(0);
  await page.getByTestId('oauth-allow').click();

  const returned = await callback.received;
  await callback.close();
  expect(returned.pathname).toBe('/callback');
  expect(returned.searchParams.get('state')).toBe(provider.sentState);
  expect(returned.searchParams.get('iss')).toBe(server.config.publicUrl.origin);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(returned.searchParams.get('code') ?? '');
  const client = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_dev_copilot', 'read_page', 'search_handbook']);
  const found = (await client.callTool({
    name: 'search_handbook',
    arguments: { query: 'firestore ttl' },
  })) as CallToolResult;
  expect(JSON.stringify(found.content)).toContain(`${server.config.publicUrl.origin}/firestore-ttl`);
  await client.close();

  expect(provider.tokens()?.access_token).toMatch(/^acme_oat_/);
  expect(provider.tokens()?.refresh_token).toMatch(/^acme_ort_/);
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'acme_session');
  const { tokens: listed } = await tokensApi(server.baseUrl, `acme_session=${session?.value}`).list();
  expect(listed.map((token) => token.name)).toEqual(['Claude <b>Code</b> (connected with OAuth)']);
});

test('denyOnTheConsentPageSendsAccessDeniedWithTheStateBackToTheAgent', async ({ server, signedInPage }) => {
  const callback = await startCallbackServer();
  const provider = new InMemoryOAuthProvider(callback.redirectUrl);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), { authProvider: provider });
  await expect(new Client({ name: 'e2e', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  await signedInPage.goto(provider.authorizationUrl?.href ?? '');
  await signedInPage.getByTestId('oauth-deny').click();
  const returned = await callback.received;
  await callback.close();
  expect(returned.searchParams.get('error')).toBe('access_denied');
  expect(returned.searchParams.get('state')).toBe(provider.sentState);
  expect(returned.searchParams.get('code')).toBeNull();
});

test('aNativeAppsPrivateUseSchemeGetsItsCodeFromTheConsentPageInChromium', async ({ server, signedInPage }) => {
  // Cursor, VS Code and other native agents return to a scheme of their own (RFC 8252 7.1), not to a loopback port.
  const provider = new InMemoryOAuthProvider('com.example.agent:/callback');
  const mcpUrl = new URL('/mcp', server.baseUrl);
  const refused = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: 'e2e', version: '1' }).connect(refused)).rejects.toBeInstanceOf(UnauthorizedError);
  const blocked: string[] = [];
  signedInPage.on('console', (message) => {
    if (message.text().includes('form-action')) blocked.push(message.text());
  });
  await signedInPage.goto(provider.authorizationUrl?.href ?? '');
  const allowed = signedInPage.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/oauth/authorize'),
  );
  await signedInPage.getByTestId('oauth-allow').click();
  const location = new URL((await (await allowed).headerValue('location')) ?? '');
  // The browser follows the redirect to the app's scheme (it hands it to the OS); a blocked one says so at once.
  await signedInPage.waitForTimeout(500);

  expect(blocked).toEqual([]);
  expect(`${location.protocol}${location.pathname}`).toBe('com.example.agent:/callback');
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(location.searchParams.get('code') ?? '');
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(transport);
  expect((await client.listTools()).tools.length).toBe(3);
  await client.close();
});

test('aRefreshTokenWorksOnceAndPresentedAgainRevokesTheGrant', async ({ server }) => {
  const granted = await grantOverHttp(server.baseUrl, 'refresher@acme.dev');
  const refresh = { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: granted.refresh };
  const renewed = await tokenRequest(server.baseUrl, refresh);
  expect(renewed.status).toBe(200);
  expect(renewed.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'handbook:read' });
  expect((await listTools(server.baseUrl, renewed.body.access_token ?? '')).status).toBe(200);
  expect((await listTools(server.baseUrl, granted.access)).status).toBe(401);
  const again = await tokenRequest(server.baseUrl, refresh);
  expect(again).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } });
  // The replayed token was a copy or a retry: the whole grant ends, the tokens the last refresh gave included.
  expect((await listTools(server.baseUrl, renewed.body.access_token ?? '')).status).toBe(401);
  const fromRenewed = { ...refresh, refresh_token: renewed.body.refresh_token ?? '' };
  expect((await tokenRequest(server.baseUrl, fromRenewed)).body.error).toBe('invalid_grant');
});

test('aMadeUpRefreshSecretForALiveGrantIsRefusedAndEndsNothing', async ({ server }) => {
  const granted = await grantOverHttp(server.baseUrl, 'guessed@acme.dev');
  // The grant's id is in each of its tokens; the secret is made up.
  const forged = `${granted.refresh.slice(0, 'acme_ort_'.length + 16)}${'A'.repeat(43)}`;
  const refresh = { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: forged };
  expect((await tokenRequest(server.baseUrl, refresh)).body.error).toBe('invalid_grant');
  expect((await listTools(server.baseUrl, granted.access)).status).toBe(200);
  const real = await tokenRequest(server.baseUrl, { ...refresh, refresh_token: granted.refresh });
  expect(real.status).toBe(200);
});

test('anApplicationsTokenSearchesButCannotReadTheReadersConversations', async ({ server }) => {
  const granted = await grantOverHttp(server.baseUrl, 'chats@acme.dev');
  const threadId = await readerApi(server.baseUrl, granted.cookie).newThread();
  const read = (path: string, token: string) => fetch(`${server.baseUrl}${path}`, withToken(token));
  for (const path of ['/api/threads', `/api/threads/${threadId}`]) {
    const refused = await read(path, granted.access);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ApiErrorBody).error.code).toBe('forbidden:token_scope');
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  }
  expect((await read('/api/search?q=ttl', granted.access)).status).toBe(200);
  // The reader's own personal token still reads them, for their scripts.
  const personal = (await tokensApi(server.baseUrl, granted.cookie).create('my script')).token;
  expect((await read(`/api/threads/${threadId}`, personal)).status).toBe(200);
});

test('aRevokedGrantStopsWorkingAtOnce', async ({ server }) => {
  const granted = await grantOverHttp(server.baseUrl, 'revoker@acme.dev');
  expect((await listTools(server.baseUrl, granted.access)).status).toBe(200);
  const api = tokensApi(server.baseUrl, granted.cookie);
  const [grant] = (await api.list()).tokens;
  expect(grant?.name).toBe('Script agent (connected with OAuth)');
  expect((await api.revoke(grant?.id ?? '')).status).toBe(204);
  const refused = await listTools(server.baseUrl, granted.access);
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  const refresh = { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: granted.refresh };
  expect((await tokenRequest(server.baseUrl, refresh)).body.error).toBe('invalid_grant');
});

test('aReaderThePolicyLaterRefusesLosesTheAgentsAccessAtOnce', async ({ server }) => {
  const labs = await grantOverHttp(server.baseUrl, 'agent@acme-labs.dev');
  const dev = await grantOverHttp(server.baseUrl, 'agent@acme.dev');
  expect((await listTools(server.baseUrl, labs.access)).status).toBe(200);
  await writePolicy({ domains: ['acme.dev', 'acme.io'], addresses: [] });
  try {
    expect((await listTools(server.baseUrl, labs.access)).status).toBe(403);
    const refresh = { grant_type: 'refresh_token', client_id: labs.clientId, refresh_token: labs.refresh };
    expect((await tokenRequest(server.baseUrl, refresh)).body.error).toBe('invalid_grant');
    expect((await listTools(server.baseUrl, dev.access)).status).toBe(200);
  } finally {
    await writePolicy(everyone);
  }
});
