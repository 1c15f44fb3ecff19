import { afterAll, beforeAll, expect, it } from 'vitest';
import { copilotClient, readChunks, textOf } from './ask-fixtures';
import { startModelServerBehindOutageProxy } from './model-server-behind-outage';
import { sessionCookieFor } from './sign-in';

/**
 * An answer whose end comes while PostgreSQL is away: the reader has read it whole, and the server writes its end
 * again until the database is back, so the stored answer is the one the reader saw (it was left "running" with its
 * first words, then swept to an error).
 */
let setup: Awaited<ReturnType<typeof startModelServerBehindOutageProxy>>;

beforeAll(async () => {
  setup = await startModelServerBehindOutageProxy();
}, 60_000);

afterAll(() => setup?.close());

it('stores the whole answer once the database is back, when it went away before the answer ended', async () => {
  const { server, proxy, fakeModel } = setup;
  const copilot = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, 'patient@acme.dev'));
  const words = Array.from({ length: 30 }, (_, index) => `word${index} `);
  fakeModel.behave({ reply: words, chunkDelayMs: 100 });
  const { threadId, response } = await copilot.askInNewThread('How do I roll back a release?');
  expect(response.status).toBe(200);
  // The question is stored; the answer streams for about 3 s. The database goes away a second in, for 3 s.
  const outage = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await proxy.outage('reset');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await proxy.restore();
  })();
  const chunks = await readChunks(response);
  await outage;
  expect(textOf(chunks)).toBe(words.join(''));
  expect(chunks.some((chunk) => chunk.type === 'finish')).toBe(true);

  const [question, answer] = (await copilot.thread(threadId)).messages;
  expect(question?.role).toBe('user');
  expect(answer).toMatchObject({ role: 'assistant', status: 'complete' });
  expect(answer?.content).toEqual([{ type: 'text', text: words.join('') }]);
}, 60_000);
