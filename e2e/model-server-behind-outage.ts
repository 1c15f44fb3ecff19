import { startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { createPostgresTestDatabase } from '../server/test-support/test-databases';
import { startServerOnItsOwnStore } from './harness';
import { startOutageProxy } from './outage-proxy';

/**
 * A server that answers with the local model server, on a throwaway PostgreSQL database reached through an outage
 * proxy, with one-second connect and query timeouts: for the tests of answers and shutdowns while the database is away.
 */
export async function startModelServerBehindOutageProxy(environment: Record<string, string> = {}) {
  const database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  const proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const fakeModel = await startFakeModelServer();
  const server = await startServerOnItsOwnStore({
    DATABASE_URL: proxy.databaseUrl(target.href),
    DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
    DATABASE_QUERY_TIMEOUT_SECONDS: '1',
    COPILOT_PROVIDER: 'openai-compatible',
    COPILOT_MODEL: 'test-model',
    COPILOT_BASE_URL: `${fakeModel.url}/v1`,
    LOG_LEVEL: 'fatal',
    ...environment,
  });
  let serverClosed = false;
  return {
    proxy,
    fakeModel,
    server,
    /** Stops the server; a test that stops it itself, to measure its stop, calls this. */
    closeServer() {
      serverClosed = true;
      return server.close();
    },
    /** Stops what is still running and drops the database. */
    async close() {
      if (!serverClosed) await server.close().catch(() => {});
      await fakeModel.close();
      await proxy.close();
      await database.drop();
    },
  };
}
