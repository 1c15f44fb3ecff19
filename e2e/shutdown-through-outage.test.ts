import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { copilotClient, readChunks } from './ask-fixtures';
import { startServerOnItsOwnStore } from './harness';
import { type OutageProxy, startOutageProxy } from './outage-proxy';
import { sessionCookieFor } from './sign-in';

/**
 * The server stops while PostgreSQL is away and an answer streams: the reader is told at once to ask again (another
 * instance answers), and the server's stop is not held by the answer's end, which cannot be written.
 */
let database: TestDatabase;
let proxy: OutageProxy;
let fakeModel: Awaited<ReturnType<typeof startFakeModelServer>>;
let server: Awaited<ReturnType<typeof startServerOnItsOwnStore>> | undefined;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  proxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  fakeModel = await startFakeModelServer();
  server = await startServerOnItsOwnStore({
    DATABASE_URL: proxy.databaseUrl(target.href),
    DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
    DATABASE_QUERY_TIMEOUT_SECONDS: '1',
    SHUTDOWN_TIMEOUT_SECONDS: '1',
    COPILOT_PROVIDER: 'openai-compatible',
    COPILOT_MODEL: 'test-model',
    COPILOT_BASE_URL: `${fakeModel.url}/v1`,
    LOG_LEVEL: 'fatal',
  });
}, 60_000);

afterAll(async () => {
  await server?.close().catch(() => {});
  await fakeModel?.close();
  await proxy?.close();
  await database?.drop();
});

it('tells the reader to ask again at once when it stops with the database away, and is not held by the answer', async () => {
  const running = server;
  if (!running) throw new Error('The server did not start.');
  const copilot = copilotClient(running.baseUrl, await sessionCookieFor(running.baseUrl, 'stopping@acme.dev'));
  fakeModel.behave({ reply: Array.from({ length: 100 }, (_, index) => `word${index} `), chunkDelayMs: 200 });
  const { response } = await copilot.askInNewThread('How do I roll back a release?');
  expect(response.status).toBe(200);
  const read = readChunks(response);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await proxy.outage('blackhole');
  const closed = running.close().then(() => 'closed' as const);
  server = undefined;

  const chunks = await read;
  const failure = chunks.find((chunk) => chunk.type === 'data-failure');
  expect(failure && 'data' in failure ? failure.data : undefined).toMatchObject({ code: 'cancelled:ask' });
  expect(chunks.at(-1)?.type).toBe('error');
  // Within the drain and the end's 3 s, well before the 35 s the end is otherwise written again for.
  const late = new Promise((resolve) => setTimeout(() => resolve('still closing'), 15_000));
  expect(await Promise.race([closed, late])).toBe('closed');
}, 60_000);
