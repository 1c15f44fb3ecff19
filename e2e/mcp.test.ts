import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/** The MCP server at /mcp (issue 28, item 2), driven by the SDK's own client over HTTP with a personal token. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', ASK_REQUESTS_PER_MINUTE: '4' } });

/** Every HTTP status the client saw, so a test can say no request ended in a 5xx. */
type Connected = { client: Client; statuses: number[] };

async function connect(baseUrl: string, token: string): Promise<Connected> {
  const statuses: number[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
  const client = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, statuses };
}

const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('');

let tokenSerial = 0;
async function tokenFor(baseUrl: string, email: string) {
  tokenSerial += 1;
  return tokensApi(baseUrl, await sessionCookieFor(baseUrl, email)).create(`mcp ${tokenSerial}`);
}

test.beforeAll(async ({ sessionCookie }) => {
  expect(sessionCookie).toContain('acme_session=');
});

describe('an agent with a personal token', () => {
  test('lists the three tools with titles, descriptions and input schemas, and every page as a resource', async ({
    server,
    sessionCookie,
  }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent');
    const { client } = await connect(server.baseUrl, token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_dev_copilot', 'read_page', 'search_handbook']);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(Object.keys(tool.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
    }
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`, withToken(token))).text();
    const pages = [...llms.matchAll(/^- \[.+?\]\((\S+?\.md)\)/gm)].map((match) => new URL(match[1] ?? '').pathname);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => new URL(resource.uri).pathname).sort()).toEqual([...pages].sort());
    expect(resources.every((resource) => resource.uri.startsWith(server.config.publicUrl.origin))).toBe(true);
    // Each listed by its page's own title, as a client shows them.
    expect(new Set(resources.map((resource) => resource.title)).size).toBe(resources.length);
    expect(resources.find((resource) => resource.uri.endsWith('/firestore-ttl.md'))?.title).toBe('Firestore TTL');
    const first = resources[0];
    if (!first) throw new Error('no resources');
    const read = await client.readResource({ uri: first.uri });
    const page = await (await fetch(first.uri, withToken(token))).text();
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: page });
    await client.close();
  });

  test('searches, reads a page and one section, and asks Dev Copilot', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent');
    const { client, statuses } = await connect(server.baseUrl, token);

    const found = textOf(await client.callTool({ name: 'search_handbook', arguments: { query: 'firestore ttl' } }));
    expect(found).toContain(`${server.config.publicUrl.origin}/firestore-ttl`);
    expect(found).not.toContain('No section mentions');
    // Told which of its words no section holds, so it does not take the sections for an answer about them.
    const partly = textOf(await client.callTool({ name: 'search_handbook', arguments: { query: 'terraform ttl' } }));
    expect(partly).toMatch(/^No section mentions: terraform\. These match the rest\.\n\n1\. /);

    const page = textOf(await client.callTool({ name: 'read_page', arguments: { url: '/firestore-ttl' } }));
    expect(page).toBe(await (await fetch(`${server.baseUrl}/firestore-ttl.md`, withToken(token))).text());
    const section = textOf(
      await client.callTool({ name: 'read_page', arguments: { url: `${server.baseUrl}/firestore-ttl#how-ttl-works` } }),
    );
    expect(section.startsWith('## How TTL works')).toBe(true);
    expect(section.length).toBeLessThan(page.length);
    // A page path as the site shows it, with a space, reads as its %20 form; its links are whole markdown links.
    const spaced = '/Development Resources/shopify-auth-managed-migration';
    const withSpace = textOf(await client.callTool({ name: 'read_page', arguments: { url: spaced } }));
    expect(withSpace).toBe(
      textOf(await client.callTool({ name: 'read_page', arguments: { url: spaced.replace(' ', '%20') } })),
    );
    expect(withSpace).toContain('# ');

    const answer = await client.callTool({
      name: 'ask_dev_copilot',
      arguments: { question: 'How do I create a TTL policy for expireAt in Firestore?' },
    });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toMatch(/Confidence: (answered|closest)/);
    expect(answer.structuredContent).toMatchObject({ mode: 'docs-only' });
    // The answer's own links are on the handbook's origin: an agent cannot resolve a root-relative one.
    const inline = [...textOf(answer).matchAll(/\]\(<?([^)>\s]+)/g)].map((match) => match[1] ?? '');
    expect(inline.length).toBeGreaterThan(0);
    expect(inline.filter((url) => !url.startsWith(`${server.config.publicUrl.origin}/`))).toEqual([]);
    expect(statuses.every((status) => status < 500)).toBe(true);
    await client.close();
  });

  test.for([
    ['an empty query', 'search_handbook', { query: '' }],
    ['a 10 KB query', 'search_handbook', { query: 'ttl '.repeat(2560) }],
    ['a missing query', 'search_handbook', {}],
    ['a limit of 1000', 'search_handbook', { query: 'ttl', limit: 1000 }],
    ['a NUL in the URL', 'read_page', { url: '/firestore-ttl\0' }],
    ['an unknown page', 'read_page', { url: '/no-such-page/' }],
    ['an unknown section', 'read_page', { url: '/firestore-ttl#no-such-section' }],
    ['another site', 'read_page', { url: 'https://evil.example/firestore-ttl' }],
    ['a 10 KB URL', 'read_page', { url: `/${'a'.repeat(10_240)}` }],
    ['an empty question', 'ask_dev_copilot', { question: '   ' }],
    ['a question of NULs', 'ask_dev_copilot', { question: '\0\0\0' }],
    ['a 40 KB question', 'ask_dev_copilot', { question: 'why '.repeat(10_000) }],
    ['an unknown tool', 'delete_everything', {}],
  ] as const)('answers %s with an MCP error, never a 500', async ([, name, args], { server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent');
    const { client, statuses } = await connect(server.baseUrl, token);
    const outcome = await client.callTool({ name, arguments: args }).then(
      (result) => ({ isError: result.isError === true, text: textOf(result) }),
      (error: unknown) => ({ isError: true, text: String(error) }),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.text.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status < 500)).toBe(true);
    await client.close();
  });

  test('counts questions against the same per-reader limit as the browser', async ({ server }) => {
    const cookie = await sessionCookieFor(server.baseUrl, 'asker@acme.dev');
    const { token } = await tokensApi(server.baseUrl, cookie).create('agent');
    const { client } = await connect(server.baseUrl, token);
    const ask = () =>
      client.callTool({ name: 'ask_dev_copilot', arguments: { question: 'How do I register a GitLab runner?' } });
    for (let index = 0; index < 4; index += 1) expect((await ask()).isError).toBeFalsy();
    const limited = await ask();
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toContain('Too many questions');
    const fromBrowser = await fetch(`${server.baseUrl}/api/askAi`, {
      method: 'POST',
      headers: { cookie, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'ttl?' }], attachments: [] }],
      }),
    });
    expect(fromBrowser.status).toBe(429);
    await client.close();
  });
});

describe("the README's curl commands", () => {
  test('get tools/list from /mcp and an answer from askAi with a token alone', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('curl');
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const listed = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...json, accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(listed.status).toBe(200);
    const tools = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((tool) => tool.name)).toContain('search_handbook');
    const asked = await fetch(`${server.baseUrl}/api/askAi`, {
      method: 'POST',
      headers: json,
      body: '{"messages":[{"role":"user","content":[{"type":"text","text":"How long do TTL deletes take?"}]}]}',
    });
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { data: string }).data).toContain('TTL');
  });
});

describe('the MCP endpoint refuses', () => {
  test('a request without a token, pointing at its protected-resource metadata (RFC 9728)', async ({ server }) => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const metadataUrl = `${server.config.publicUrl.origin}/.well-known/oauth-protected-resource`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    // Told that no token came, not sent off to make a new one.
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('unauthorized:token_missing');
    expect(error.message).toMatch(/^No token was sent\..*Authorization: Bearer <token>/);
    const metadata = await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource: `${server.config.publicUrl.origin}/mcp`,
      bearer_methods_supported: ['header'],
    });
  });

  test('a body that is not JSON, in JSON-RPC terms (parse error), not a server error', async ({
    server,
    sessionCookie,
  }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('broken client');
    const response = await fetch(
      `${server.baseUrl}/mcp`,
      withToken(token, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0", "id": 1, "method": ',
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not JSON.' },
      id: null,
    });
  });

  test('aSignedInBrowserSessionAloneCannotCallMcp', async ({ server, sessionCookie }) => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        cookie: sessionCookie,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  test('aTokenInTheQueryStringIsNotAccepted', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent');
    const response = await fetch(`${server.baseUrl}/mcp?access_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  test('aRevokedTokenOnItsNextRequest', async ({ server }) => {
    const cookie = await sessionCookieFor(server.baseUrl, 'revoker@acme.dev');
    const api = tokensApi(server.baseUrl, cookie);
    const { token, id } = await api.create('agent');
    const { client } = await connect(server.baseUrl, token);
    expect((await client.listTools()).tools.length).toBe(3);
    expect((await api.revoke(id)).status).toBe(204);
    await expect(client.listTools()).rejects.toThrow();
    await expect(connect(server.baseUrl, token)).rejects.toThrow();
  });

  test('GET and DELETE, as a stateless server, with 405', async ({ server, sessionCookie }) => {
    const { token } = await tokenFor(server.baseUrl, 'getter@acme.dev');
    void sessionCookie;
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.baseUrl}/mcp`, withToken(token, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
