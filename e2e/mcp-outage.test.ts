import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { freshReader, postMcp, toolCall } from './mcp-post';
import { type OutageKind, type OutageProxy, startOutageProxy } from './outage-proxy';

/**
 * /mcp while its PostgreSQL database is away: an agent is told, as every other API tells its callers, to try again in
 * 5 s (503 with Retry-After), in JSON-RPC's shape, and not that the server failed (500 "Internal error"): an agent
 * must tell an outage from a bug. Once the database is back, the same token is served again.
 */
const connectSeconds = 1;
const querySeconds = 1;
const outages: OutageKind[] = ['refuse', 'blackhole'];

let database: TestDatabase;
let proxy: OutageProxy;
let server: Awaited<ReturnType<typeof startServerOnItsOwnStore>>;
/** A token per outage, made beforehand: making one needs the database. */
const tokens = new Map<OutageKind, string>();

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  server = await startServerOnItsOwnStore({
    DATABASE_URL: proxy.databaseUrl(target.href),
    DATABASE_CONNECT_TIMEOUT_SECONDS: String(connectSeconds),
    DATABASE_QUERY_TIMEOUT_SECONDS: String(querySeconds),
    LOG_LEVEL: 'fatal',
  });
  for (const kind of outages) tokens.set(kind, (await freshReader(server.baseUrl, `mcp-outage-${kind}`)).token);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await database?.drop();
});

const search = toolCall(1, 'search_handbook', { query: 'rollback' });

describe('an MCP request while the database is away', () => {
  it.each(outages)(
    '%s: answers 503 with Retry-After: 5 and a JSON-RPC error, then serves again once it is back',
    async (kind) => {
      const token = tokens.get(kind) ?? '';
      expect((await postMcp(server.baseUrl, token, search)).status).toBe(200);
      await proxy.outage(kind);

      const response = await postMcp(server.baseUrl, token, search, { signal: AbortSignal.timeout(15_000) });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.json).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32603,
          message: "The handbook's database is unavailable; try again in a few seconds.",
          data: { retryAfterSeconds: 5 },
        },
        id: null,
      });

      await proxy.restore();
      await expect
        .poll(async () => (await postMcp(server.baseUrl, token, search)).status, { timeout: 15_000, interval: 200 })
        .toBe(200);
    },
    45_000,
  );
});
