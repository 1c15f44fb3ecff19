import { afterAll, beforeAll, expect, it } from 'vitest';
import { copilotClient, readChunks, textOf } from './ask-fixtures';
import { startModelServerBehindOutageProxy } from './model-server-behind-outage';
import { sessionCookieFor } from './sign-in';

/**
 * The server stops while PostgreSQL is away, and an answer ends within the drain: its end cannot be written. Once the
 * drain is over the reader is told to ask again, and the server stops within its bound: the end is no longer written
 * again for the 35 s an outage gets, nor kept waiting behind progress writes each held by the query timeout (a review
 * saw the process reach its hard deadline, and the reader's stream cut without a word).
 */
let setup: Awaited<ReturnType<typeof startModelServerBehindOutageProxy>>;
const drainSeconds = 3;

beforeAll(async () => {
  setup = await startModelServerBehindOutageProxy({ SHUTDOWN_TIMEOUT_SECONDS: String(drainSeconds) });
}, 60_000);

afterAll(() => setup?.close());

it('tells the reader to ask again when an answer that ended in the drain cannot be stored, and stops in time', async () => {
  const { server: running, proxy, fakeModel } = setup;
  const copilot = copilotClient(running.baseUrl, await sessionCookieFor(running.baseUrl, 'ending@acme.dev'));
  const words = Array.from({ length: 25 }, (_, index) => `word${index} `);
  fakeModel.behave({ reply: words, chunkDelayMs: 80 });
  const { response } = await copilot.askInNewThread('How do I roll back a release?');
  let stopping = Number.POSITIVE_INFINITY;
  expect(response.status).toBe(200);
  let toldAfterMs = Number.NaN;
  const read = readChunks(response, (chunk) => {
    if (chunk.type === 'data-failure') toldAfterMs = performance.now() - stopping;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await proxy.outage('blackhole');
  stopping = performance.now();
  const closed = setup.closeServer().then(() => performance.now() - stopping);

  const chunks = await read;
  const endedAfterMs = performance.now() - stopping;
  expect(textOf(chunks)).toBe(words.join(''));
  const failure = chunks.find((chunk) => chunk.type === 'data-failure');
  expect(failure && 'data' in failure ? failure.data : undefined).toMatchObject({ code: 'cancelled:ask' });
  expect(chunks.at(-1)?.type).toBe('error');
  // Told as the drain ends (an end written in time would have finished the answer), not 35 s later; the stream ends
  // once the end's allowance at shutdown is over, before the process cuts the connections still open (5 s).
  expect(toldAfterMs).toBeGreaterThan(drainSeconds * 1000 - 500);
  expect(toldAfterMs).toBeLessThan((drainSeconds + 1) * 1000);
  expect(endedAfterMs).toBeLessThan((drainSeconds + 5) * 1000);
  // The drain, the end's 3 s at shutdown and the store's close: well within the 10 s the process gives after the drain.
  const late = new Promise<string>((resolve) => setTimeout(() => resolve('still closing'), 20_000));
  const closedAfterMs = await Promise.race([closed, late]);
  expect(closedAfterMs).toBeLessThan((drainSeconds + 5) * 1000);
}, 60_000);
