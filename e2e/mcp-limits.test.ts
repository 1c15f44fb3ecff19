import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { freshReader, postMcp, type RpcAnswer, toolCall } from './mcp-post';

/**
 * Every tool call and resource read or listing of /mcp counts against its reader's requests a minute, each entry of a
 * batch as one; an entry over the limit does not run and is answered with a JSON-RPC error that says so, the rest of
 * its batch answered as usual (attack review: 100 read_page or resources/list in one POST counted against nothing).
 */
const perMinute = 6;
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', SEARCH_REQUESTS_PER_MINUTE: String(perMinute) } });

const tooMany =
  /^(MCP error -32004: )?Too many tool calls and resource reads: at most 6 a minute\. Try again in \d+ s\.$/;

async function connect(baseUrl: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const refusalOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('an agent over its requests a minute', () => {
  test('is refused each further tool call, resource read and listing, and another reader is not', async ({
    server,
  }) => {
    const client = await connect(server.baseUrl, (await freshReader(server.baseUrl, 'reader-of-pages')).token);
    const origin = server.config.publicUrl.origin;
    for (let call = 0; call < perMinute; call += 1) {
      const read = await client.callTool({ name: 'read_page', arguments: { url: '/firestore-ttl' } });
      expect(read.isError).toBeFalsy();
    }
    for (const refused of [
      refusalOf(client.callTool({ name: 'read_page', arguments: { url: '/firestore-ttl' } })),
      refusalOf(client.callTool({ name: 'search_handbook', arguments: { query: 'ttl' } })),
      refusalOf(client.readResource({ uri: `${origin}/firestore-ttl.md` })),
      refusalOf(client.listResources()),
    ]) {
      const error = await refused;
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32004);
      expect((error as McpError).message).toMatch(tooMany);
    }
    // Listing the tools is no call of one.
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();

    const another = await connect(server.baseUrl, (await freshReader(server.baseUrl, 'another-reader')).token);
    expect((await another.callTool({ name: 'read_page', arguments: { url: '/firestore-ttl' } })).isError).toBeFalsy();
    await another.close();
  });

  test('counts each entry of a batch, and answers those over the limit alone, without running them', async ({
    server,
  }) => {
    const { token, cookie } = await freshReader(server.baseUrl, 'batcher');
    const origin = server.config.publicUrl.origin;
    const batch = [
      { jsonrpc: '2.0', id: 'tools', method: 'tools/list' },
      ...Array.from({ length: 4 }, (_, id) => toolCall(id, 'read_page', { url: '/firestore-ttl' })),
      { jsonrpc: '2.0', id: 'list', method: 'resources/list' },
      { jsonrpc: '2.0', id: 'read', method: 'resources/read', params: { uri: `${origin}/coding-standard.md` } },
      ...Array.from({ length: 3 }, (_, id) => toolCall(10 + id, 'search_handbook', { query: 'firestore ttl' })),
    ];
    const { status, json } = await postMcp(server.baseUrl, token, batch);
    expect(status).toBe(200);
    const answers = new Map((json as RpcAnswer[]).map((answer) => [answer.id, answer]));
    expect(answers.size).toBe(batch.length);
    expect(answers.get('tools')?.result).toBeDefined();
    // Six calls ran, in the batch's order: four read_page, the listing, and one read of a resource.
    for (const id of [0, 1, 2, 3, 'list', 'read']) {
      expect(answers.get(id), `entry ${id}`).toMatchObject({ result: expect.any(Object) });
      expect(answers.get(id)?.error).toBeUndefined();
    }
    for (const id of [10, 11, 12]) {
      const answer = answers.get(id);
      expect(answer?.result, `entry ${id} ran`).toBeUndefined();
      expect(answer?.error).toMatchObject({ code: -32004, data: { retryAfterSeconds: expect.any(Number) } });
      expect(answer?.error?.message).toMatch(tooMany);
    }
    // The three searches did not run: had they, they would have counted against the reader's searches a minute,
    // which their browser still has whole.
    for (let search = 0; search < perMinute; search += 1) {
      const response = await fetch(`${server.baseUrl}/api/search?q=ttl`, { headers: { cookie } });
      expect(response.status, `search ${search + 1}`).toBe(200);
    }
  });
});
