import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readerKeyOf } from '../auth/reader-identity.js';
import type { EntryCheck } from './paced-transport.js';

/** The requests that do the handbook's work (a search, a page read, the listing of every page): each one counts. */
const countedMethods = new Set(['tools/call', 'resources/read', 'resources/list']);

/**
 * The JSON-RPC error of a call over the limit. MCP defines no code for it; -32004 is in the range JSON-RPC leaves to
 * servers and MCP leaves to implementations (-32000 to -32019), and is none of the SDK's own (-32000, -32001) or
 * MCP's "Resource not found" (-32002).
 */
export const tooManyCallsCode = -32004;

/**
 * Counts every tool call and resource read or listing of an agent against its reader's requests a minute, as the
 * handbook's APIs count theirs (@fastify/rate-limit, per reader, shared across instances through the limits' store):
 * each entry of a batch is one, counted just before it runs. The bound is the reader's searches a minute
 * (SEARCH_REQUESTS_PER_MINUTE), counted apart from them: a search_handbook call also counts as a search, as the
 * browser's do, and ask_dev_copilot as a question. Registers the counter on `app` (an encapsulated plugin's own);
 * the check it returns answers a call over the limit with a JSON-RPC error, and lets every other request through.
 */
export async function registerCallLimit(app: FastifyInstance): Promise<(request: FastifyRequest) => EntryCheck> {
  const store = app.limits.perMinuteStore;
  await app.register(rateLimit, {
    global: false,
    ...(store && { store }),
    max: app.config.searchRequestsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) =>
      request.access.state === 'signed-in' ? `mcp:user:${readerKeyOf(request.access.session)}` : `mcp:ip:${request.ip}`,
  });
  const count = app.createRateLimit();
  return (request) => async (entry) => {
    if (!countedMethods.has(entry.method)) return undefined;
    const counted = await count(request);
    if (counted.isAllowed || !counted.isExceeded) return undefined;
    const retryAfterSeconds = Math.max(1, counted.ttlInSeconds);
    return {
      code: tooManyCallsCode,
      message: `Too many tool calls and resource reads: at most ${counted.max} a minute. Try again in ${retryAfterSeconds} s.`,
      data: { retryAfterSeconds },
    };
  };
}
