import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { freshReader, postMcp } from './mcp-post';

/**
 * What /mcp answers a request it cannot serve, in the terms of JSON-RPC 2.0 and MCP (attack review, protocol details):
 * a clear tool error, "Resource not found", Invalid Request, never a JavaScript error's own text or a Parse error for
 * a body that parsed.
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

/** One reader's token for the whole file. */
let token = '';
const tokenFor = async (baseUrl: string) => {
  token ||= (await freshReader(baseUrl, 'protocol')).token;
  return token;
};

async function connect(baseUrl: string) {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${await tokenFor(baseUrl)}` } },
  });
  const client = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const invalidRequest = (message: RegExp) => ({
  jsonrpc: '2.0',
  error: { code: -32600, message: expect.stringMatching(message) },
  id: null,
});

describe('read_page and resources/read', () => {
  test.for(['/firestore-ttl#%%%%', '/firestore-ttl#%E0%A4%A', '/firestore-ttl#%'])(
    'answer a section anchor that is not percent-encoded right (%s) with a tool error saying so',
    async (url, { server }) => {
      const client = await connect(server.baseUrl);
      const result = (await client.callTool({ name: 'read_page', arguments: { url } })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text).not.toContain('URI malformed');
      expect(text).toBe(
        `The section anchor #${url.split('#')[1]} is not valid: each % must begin an escape of UTF-8 (%20, %C3%A9).`,
      );
      await client.close();
    },
  );

  // The site's scripts, styles and images are a browser's: a token is not read there, so the handbook answers "Sign in",
  // which an agent signed in with its token cannot act on. It is told the address is no page, and what read_page reads.
  test.for(['/assets/js/main.js', '/img/logo.svg', '/assets/js/no-such-chunk.js?v=1'])(
    'read_page of a file of the site that is no page (%s) says so, not "Sign in"',
    async (url, { server }) => {
      const client = await connect(server.baseUrl);
      const result = (await client.callTool({ name: 'read_page', arguments: { url } })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text).not.toContain('Sign in');
      expect(text).toMatch(new RegExp(`^${url.split('?')[0]} is not a page of the handbook`));
      expect(text).toContain('/firestore-ttl');
      await client.close();
    },
  );

  // `%ff.md` is refused by the handbook itself (not percent-encoded UTF-8): no page has that address either.
  test.for(['/no-such-page.md', '/%ff.md', '/%E0%A4%A.md', '/assets/js/main.js', '/img/logo.svg'])(
    'resources/read of a page the handbook does not have (%s) answers -32002 Resource not found',
    async (path, { server }) => {
      const client = await connect(server.baseUrl);
      const uri = `${server.config.publicUrl.origin}${path}`;
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (refusal: unknown) => refusal,
      );
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: -32002, data: { uri } });
      expect((error as McpError).message).toContain('Resource not found');
      await client.close();
    },
  );
});

describe('a body that is JSON but no JSON-RPC request', () => {
  test('an object as the request id gets Invalid Request (-32600), not a Parse error', async ({ server }) => {
    const { status, json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), {
      jsonrpc: '2.0',
      id: { a: 1 },
      method: 'tools/list',
    });
    expect(status).toBe(400);
    expect(json).toEqual(invalidRequest(/^Invalid Request: .*id/));
  });

  test('a batch with one such entry gets Invalid Request, naming the entry', async ({ server }) => {
    const { status, json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: [1], method: 'tools/list' },
    ]);
    expect(status).toBe(400);
    expect(json).toEqual(invalidRequest(/^Invalid Request: entry 2 of the batch/));
  });

  test('an empty batch gets one Invalid Request error, as JSON-RPC 2.0 asks, not an empty 202', async ({ server }) => {
    const { status, json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), '[]');
    expect(status).toBe(400);
    expect(json).toEqual(invalidRequest(/^Invalid Request: the batch is empty\.$/));
  });

  test('a number, a string or null gets Invalid Request', async ({ server }) => {
    for (const body of ['1', '"tools/list"', 'null']) {
      const { status, json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), body);
      expect(status, body).toBe(400);
      expect(json).toEqual(invalidRequest(/^Invalid Request: /));
    }
  });
});
