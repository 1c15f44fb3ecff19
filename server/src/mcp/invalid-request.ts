import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The most entries the SDK takes in one batch; it refuses a longer one itself (-32600). */
const sdkMaxBatchSize = 100;

const notAMessage =
  'not a JSON-RPC 2.0 message: an object with "jsonrpc": "2.0", a "method" and, for a request, an "id" that is a ' +
  'string or a number';

/**
 * Why a POST body that is JSON is no JSON-RPC 2.0 request (an empty batch, an id that is an object, a bare number),
 * else undefined. The SDK answers these with a Parse error (-32700), or an empty batch with an empty 202; JSON-RPC
 * 2.0 answers each with one Invalid Request error (-32600), and a Parse error only for a body that is not JSON. A batch
 * with one such entry is refused whole, as the SDK refuses it, naming the entry.
 */
export function invalidRequestIn(body: unknown): string | undefined {
  if (!Array.isArray(body))
    return JSONRPCMessageSchema.safeParse(body).success ? undefined : `the body is ${notAMessage}.`;
  if (body.length === 0) return 'the batch is empty.';
  if (body.length > sdkMaxBatchSize) return undefined;
  const invalid = body.findIndex((entry) => !JSONRPCMessageSchema.safeParse(entry).success);
  return invalid < 0 ? undefined : `entry ${invalid + 1} of the batch is ${notAMessage}.`;
}
