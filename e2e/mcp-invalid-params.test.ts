import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { test } from './fixtures';
import { freshReader, postMcp } from './mcp-post';

/**
 * A request whose params its method cannot take is answered Invalid params (-32602), naming the field on one line, as
 * JSON-RPC 2.0 asks and as a tool's bad arguments already are: never Internal error (-32603) with zod's issues as the
 * message (attack review, MCP invalid params).
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

let token = '';
const tokenFor = async (baseUrl: string) => {
  token ||= (await freshReader(baseUrl, 'params')).token;
  return token;
};

test.for([
  { method: 'tools/call', params: {}, message: 'Invalid params: params.name must be a string' },
  { method: 'tools/call', params: { name: 7 }, message: 'Invalid params: params.name must be a string' },
  { method: 'tools/call', params: undefined, message: 'Invalid params: params must be an object' },
  { method: 'resources/read', params: { uri: 123 }, message: 'Invalid params: params.uri must be a string' },
  { method: 'resources/read', params: { uri: '%%%' }, message: 'Invalid params: params.uri must be an absolute URL' },
  { method: 'tools/list', params: { cursor: 5 }, message: 'Invalid params: params.cursor must be a string' },
  { method: 'resources/list', params: { cursor: [] }, message: 'Invalid params: params.cursor must be a string' },
  {
    method: 'initialize',
    params: {},
    message:
      'Invalid params: params.protocolVersion must be a string; params.capabilities must be an object; ' +
      'params.clientInfo must be an object',
  },
])('$method with params $params gets Invalid params naming the field', async (entry, { server }) => {
  const { status, json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), {
    jsonrpc: '2.0',
    id: 2,
    method: entry.method,
    ...(entry.params && { params: entry.params }),
  });
  expect(status).toBe(200);
  expect(json).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: entry.message } });
});

test('in a batch, the entry with bad params is refused and the others are answered', async ({ server }) => {
  const { json } = await postMcp(server.baseUrl, await tokenFor(server.baseUrl), [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 123 } },
  ]);
  expect(json).toEqual([
    { jsonrpc: '2.0', id: 1, result: expect.objectContaining({ tools: expect.any(Array) }) },
    { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: params.uri must be a string' } },
  ]);
});

test("the SDK's own client reads the refusal as an McpError of code -32602", async ({ server }) => {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${await tokenFor(server.baseUrl)}` } },
  });
  const client = new Client({ name: 'handbook-e2e', version: '1.0.0' });
  await client.connect(transport);
  const refusal = await client
    .request({ method: 'tools/call', params: { name: ['read_page'] } } as never, EmptyResultSchema)
    .catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(McpError);
  expect(refusal).toMatchObject({ code: -32602, message: expect.stringContaining('params.name must be a string') });
  // A uri that is no URL, which the SDK's server would read with `new URL()` and answer Internal error "Invalid URL".
  const unread = await client.readResource({ uri: '%%%' }).catch((error: unknown) => error);
  expect(unread).toBeInstanceOf(McpError);
  expect(unread).toMatchObject({
    code: -32602,
    message: expect.stringContaining('params.uri must be an absolute URL'),
  });
  await client.close();
});
