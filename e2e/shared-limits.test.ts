import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { ApiErrorBody } from '@acme/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases.js';
import { copilotClient, readChunks } from './ask-fixtures';
import { startServerOnItsOwnStore } from './harness';
import { sessionCookieFor } from './sign-in';

/**
 * Two instances of the server on one PostgreSQL database: one reader's limits hold across both
 * (questions and searches a minute, questions running at once), whichever instance each request reaches.
 */
const questionsPerMinute = 6;
const searchesPerMinute = 5;
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index} `);
/**
 * Asks with a connection of its own and hangs up when told, as a script killed mid-answer does. node:http, not fetch:
 * an aborted fetch leaves undici a spare connection that the server's close then waits a minute for.
 */
function askAndLeave(baseUrl: string, cookie: string, body: unknown) {
  const text = JSON.stringify(body);
  const request = httpRequest(new URL('/api/askAi', baseUrl), {
    method: 'POST',
    headers: { cookie, origin: baseUrl, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
  request.on('error', () => {});
  request.end(text);
  return { leave: () => request.destroy() };
}

const question = (text: string) => ({
  messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }],
});

describe('two instances counting limits in PostgreSQL', () => {
  const fakeModel = startFakeModelServer();
  const tag = randomBytes(4).toString('hex');
  let database: TestDatabase;
  const servers: Array<{ baseUrl: string; close(): Promise<void> }> = [];

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    const model = await fakeModel;
    for (let instance = 0; instance < 2; instance++) {
      // As production starts it: each instance opens its own pool on DATABASE_URL.
      const server = await startServerOnItsOwnStore({
        DATABASE_URL: database.options.databaseUrl ?? '',
        SESSION_SECRET: 'one-secret-for-both-instances-of-the-handbook',
        ASK_REQUESTS_PER_MINUTE: String(questionsPerMinute),
        SEARCH_REQUESTS_PER_MINUTE: String(searchesPerMinute),
        ASK_CONCURRENT_PER_USER: '1',
        COPILOT_PROVIDER: 'openai-compatible',
        COPILOT_MODEL: 'test-model',
        COPILOT_BASE_URL: `${model.url}/v1`,
      });
      servers.push(server);
    }
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await (await fakeModel).close();
    await database?.drop();
  });

  /** The reader's Copilot client on each instance, signed in once (the session is shared). */
  async function readerOnBoth(name: string) {
    const [first, second] = servers.map((server) => server.baseUrl);
    const cookie = await sessionCookieFor(first ?? '', `${name}-${tag}@acme.dev`);
    return { cookie, clients: [copilotClient(first ?? '', cookie), copilotClient(second ?? '', cookie)] as const };
  }

  it('refuses a reader’s question past the limit a minute on either instance', async () => {
    (await fakeModel).behave({ reply: 'Use WSL 2.' });
    const { clients } = await readerOnBoth('asker');
    const statuses = [];
    for (let asked = 0; asked < questionsPerMinute; asked++) {
      const response = await clients[asked % 2]?.ask(question('How do I use WSL?'));
      statuses.push(response?.status);
      await response?.text();
    }
    expect(statuses).toEqual(Array(questionsPerMinute).fill(200));
    for (const client of clients) {
      const refused = await client.ask(question('How do I use WSL?'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as ApiErrorBody).error).toMatchObject({
        code: 'rate_limited:ask',
        message: expect.stringMatching(`at most ${questionsPerMinute} a minute`),
      });
    }
  });

  it('refuses a reader’s search past the limit a minute on either instance', async () => {
    const { cookie } = await readerOnBoth('searcher');
    const search = (server: { baseUrl: string } | undefined) =>
      fetch(`${server?.baseUrl}/api/search?q=ttl`, { headers: { cookie } });
    const statuses = [];
    for (let searched = 0; searched < searchesPerMinute; searched++) {
      statuses.push((await search(servers[searched % 2])).status);
    }
    expect(statuses).toEqual(Array(searchesPerMinute).fill(200));
    for (const server of servers) {
      const refused = await search(server);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as ApiErrorBody).error.code).toBe('rate_limited:search');
    }
  });

  it('refuses a second running question on the other instance, and frees the slot when the answer is stored', async () => {
    (await fakeModel).behave({ reply: words(30), chunkDelayMs: 40 });
    const { clients } = await readerOnBoth('runner');
    const [first, second] = clients;
    const { response } = (await first?.askInNewThread('How do I deploy?')) ?? {};
    expect(response?.status).toBe(200);
    const busy = await second?.ask(question('And how do I roll back?'));
    expect(busy?.status).toBe(429);
    expect(((await (busy as Response).json()) as ApiErrorBody).error.code).toBe('rate_limited:concurrent');
    await readChunks(response as Response);
    (await fakeModel).behave({ reply: 'Roll back with the pipeline.' });
    await expect.poll(async () => (await second?.ask(question('And how do I roll back?')))?.status).toBe(200);
  });

  it('frees the slot across instances when the caller of askAi goes away mid-answer', async () => {
    const model = await fakeModel;
    model.behave({ reply: words(200), chunkDelayMs: 50 });
    const { cookie, clients } = await readerOnBoth('leaver');
    const [, second] = clients;
    const askedBefore = model.received.length;
    const leaving = askAndLeave(servers[0]?.baseUrl ?? '', cookie, question('How do I deploy?'));
    // The answer is being written on the first instance: its slot is taken.
    await expect.poll(() => model.received.length > askedBefore).toBe(true);
    const busy = await second?.ask(question('How do I deploy?'));
    expect(busy?.status).toBe(429);
    expect(((await (busy as Response).json()) as ApiErrorBody).error.code).toBe('rate_limited:concurrent');
    leaving.leave();
    model.behave({ reply: 'Deploy with the pipeline.' });
    await expect.poll(async () => (await second?.ask(question('How do I deploy?')))?.status).toBe(200);
  });
});
