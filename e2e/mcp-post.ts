import { sessionCookieFor } from './sign-in';
import { tokensApi } from './tokens-api';

/** A JSON-RPC error as /mcp answers it. */
export type RpcError = { code: number; message: string; data?: unknown };
/** One answer of a batch: a result or an error, by the id of its entry. */
export type RpcAnswer = { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: RpcError };

/**
 * A reader of its own (a new address each time, so each has the whole of its limits): their browser's session cookie
 * and a personal token of theirs.
 */
let readerSerial = 0;
export async function freshReader(baseUrl: string, name: string) {
  readerSerial += 1;
  const cookie = await sessionCookieFor(baseUrl, `${name}-${readerSerial}-${Date.now()}@acme.dev`);
  return { cookie, token: (await tokensApi(baseUrl, cookie).create('agent')).token };
}

/**
 * A POST to /mcp as a script or an agent's client sends it (a token, JSON, both media types accepted), of a body given
 * as it goes on the wire: a JSON-RPC message, a batch, or anything else. `signal` bounds a request the server might not
 * answer (a database black-holed).
 */
export async function postMcp(
  baseUrl: string,
  token: string,
  body: unknown,
  { signal }: { signal?: AbortSignal } = {},
) {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

/** A tools/call entry of a batch. */
export const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
