import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ClientRequestSchema, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { HandbookApi } from './handbook-api.js';
import { handbookServer } from './handbook-server.js';
import { invalidParamsOf } from './invalid-params.js';
import { PacedTransport } from './paced-transport.js';

const request = (method: string, params?: Record<string, unknown>): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  ...(params && { params }),
});

describe('invalidParamsOf', () => {
  it.for([
    [request('tools/call', {}), 'Invalid params: params.name must be a string'],
    [request('tools/call'), 'Invalid params: params must be an object'],
    [request('resources/read', { uri: 123 }), 'Invalid params: params.uri must be a string'],
    // The SDK reads the uri with `new URL()` before any handler runs: one that is no URL is the caller's to fix.
    [request('resources/read', { uri: '%%%' }), 'Invalid params: params.uri must be an absolute URL'],
    [request('resources/read', { uri: '/firestore-ttl.md' }), 'Invalid params: params.uri must be an absolute URL'],
    [
      request('ping', { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 1 } } }),
      'Invalid params: params._meta["io.modelcontextprotocol/related-task"].taskId must be a string',
    ],
  ] as const)('names the field at fault on one line: %o', ([entry, message]) => {
    expect(invalidParamsOf(entry)).toEqual({ code: -32602, message });
  });

  it('names three faults at most, and how many more there are', () => {
    const entry = request('initialize', { protocolVersion: 1, capabilities: 1, clientInfo: 1, _meta: 1 });
    expect(invalidParamsOf(entry)?.message).toMatch(
      /^Invalid params: (params\.\w+ must be an? \w+; ){2}[^;]+ \(and 1 more\)$/,
    );
  });

  it('lets good params, and a method the server does not answer, through', () => {
    expect(invalidParamsOf(request('tools/call', { name: 'read_page', arguments: { url: '/' } }))).toBeUndefined();
    expect(invalidParamsOf(request('tools/list'))).toBeUndefined();
    expect(invalidParamsOf(request('resources/read', { uri: 'https://elsewhere.test/a%20b' }))).toBeUndefined();
    expect(invalidParamsOf(request('prompts/get', {}))).toBeUndefined();
  });
});

/** Every request MCP lets a client send, with params no schema takes. */
const methods = ClientRequestSchema.options.map((schema) => schema.shape.method.value);
const badParams = { name: 5, uri: 5, cursor: 5, taskId: 5, ref: 5, level: 5, protocolVersion: 5 };

describe('the handbook server behind the check', () => {
  it.for(methods)(
    'answers %s with bad params Invalid params or Method not found, never Internal error',
    async (method) => {
      const server = handbookServer({ api: {} as HandbookApi, origin: 'https://handbook.test', version: '1.0.0' });
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      const answers: JSONRPCMessage[] = [];
      client.onmessage = (message) => answers.push(message);
      await server.connect(new PacedTransport(serverSide, async (entry) => invalidParamsOf(entry)));
      await client.send(request(method, badParams));
      await expect.poll(() => answers.length).toBe(1);
      const [answer] = answers;
      if (answer && 'error' in answer) {
        expect([-32601, -32602]).toContain(answer.error.code);
        expect(answer.error.message).not.toContain('\n');
      }
      await server.close();
    },
  );
});
