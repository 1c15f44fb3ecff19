import { afterAll, beforeAll, expect, it } from 'vitest';
import { copilotClient, readChunks } from './ask-fixtures';
import { startModelServerBehindOutageProxy } from './model-server-behind-outage';
import { sessionCookieFor } from './sign-in';

/**
 * The server stops while PostgreSQL is away and an answer streams: the reader is told at once to ask again (another
 * instance answers), and the server's stop is not held by the answer's end, which cannot be written.
 */
let setup: Awaited<ReturnType<typeof startModelServerBehindOutageProxy>>;

beforeAll(async () => {
  setup = await startModelServerBehindOutageProxy({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
}, 60_000);

afterAll(() => setup?.close());

it('tells the reader to ask again at once when it stops with the database away, and is not held by the answer', async () => {
  const { server: running, proxy, fakeModel } = setup;
  const copilot = copilotClient(running.baseUrl, await sessionCookieFor(running.baseUrl, 'stopping@acme.dev'));
  fakeModel.behave({ reply: Array.from({ length: 100 }, (_, index) => `word${index} `), chunkDelayMs: 200 });
  const { response } = await copilot.askInNewThread('How do I roll back a release?');
  expect(response.status).toBe(200);
  const read = readChunks(response);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await proxy.outage('blackhole');
  const closed = setup.closeServer().then(() => 'closed' as const);

  const chunks = await read;
  const failure = chunks.find((chunk) => chunk.type === 'data-failure');
  expect(failure && 'data' in failure ? failure.data : undefined).toMatchObject({ code: 'cancelled:ask' });
  expect(chunks.at(-1)?.type).toBe('error');
  // Within the drain and the end's 3 s, well before the 35 s the end is otherwise written again for.
  const late = new Promise((resolve) => setTimeout(() => resolve('still closing'), 15_000));
  expect(await Promise.race([closed, late])).toBe('closed');
}, 60_000);
