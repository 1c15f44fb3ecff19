import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { storedText } from '../server/test-support/messages.js';
import { type TestDatabase, testBackends } from '../server/test-support/test-databases.js';
import { test as base } from './fixtures';
import { startServerOnItsOwnStore } from './harness';
import { sessionCookieFor } from './sign-in';
import { answersTo, type ReaderApi, readerApi } from './threads-api';

/**
 * Saved conversations through the real sign-in, on the server's turns: the first reader's branches as the server stores
 * them, and what another reader gets for the first reader's ids. A local model writes the answers, so one can be held
 * running while someone else tries to stop it.
 */
const test = base
  /** The reader who owns the conversations (`readerEmail`). */
  .extend('alice', { scope: 'file' }, ({ server, sessionCookie }) => readerApi(server.baseUrl, sessionCookie))
  /** Another allowed reader, signed in through the same flow. */
  .extend('bob', { scope: 'file' }, async ({ server }) =>
    readerApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'bob@acme.io')),
  );
test.override({
  withModel: true,
  readerEmail: 'alice@acme.dev',
  serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' },
});

// The server, the model and both sign-ins are made before the first test, so its time limit is its own.
test.beforeAll(async ({ alice, bob }) => {
  expect(alice.cookie).not.toBe(bob.cookie);
});

const ttlAnswer = 'Set a TTL policy on the expireAt field, see [the TTL guide](/firestore-ttl).';

/** Alice's conversation: a question answered twice (Refresh), a follow-up, an edit of the first question, a rating. */
async function aliceConversation(alice: ReaderApi) {
  const threadId = await alice.newThread();
  const first = await alice.ask({ threadId, parentId: null, text: 'How do I create a TTL policy?' });
  const refreshed = await alice.ask({ threadId, retryOf: first.questionId });
  const followUp = await alice.ask({ threadId, parentId: first.answerId, text: 'And how long until deletion?' });
  const edited = await alice.ask({ threadId, parentId: null, text: 'How do I create a TTL policy in Firestore?' });
  expect((await alice.call('PUT', `/api/messages/${refreshed.answerId}/feedback`, { rating: 'positive' })).status).toBe(
    200,
  );
  return { threadId, first, refreshed, followUp, edited };
}

test('keeps a thread with its branches, answers and rating as the server made them', async ({ alice, fakeModel }) => {
  fakeModel.behave({ reply: ttlAnswer });
  const { threadId, first, refreshed, followUp, edited } = await aliceConversation(alice);

  const { thread, messages } = await alice.stored(threadId);
  // Named after the first question as edited last: the edit is the first question now.
  expect(thread.title).toBe('How do I create a TTL policy in Firestore?');
  expect(refreshed.questionId).toBe(first.questionId);
  expect(answersTo(messages, first.questionId).map((answer) => answer.id)).toEqual([
    first.answerId,
    refreshed.answerId,
  ]);
  const byId = new Map(messages.map((message) => [message.id, message]));
  expect(byId.get(followUp.questionId)?.parentId).toBe(first.answerId);
  expect(byId.get(edited.questionId)?.parentId).toBeNull();
  expect(byId.get(refreshed.answerId)?.feedback).toMatchObject({ rating: 'positive' });
  // What the reader was streamed is what is stored: text, sources and a finished status.
  for (const turn of [first, refreshed, followUp, edited]) {
    const answer = byId.get(turn.answerId);
    expect(answer).toMatchObject({ role: 'assistant', status: 'complete', parentId: turn.questionId });
    expect(storedText(answer)).toBe(turn.text);
    expect(answer?.sources.map((source) => source.url)).toEqual(turn.sources);
  }
  expect(first.text).toBe(ttlAnswer);
  expect(first.sources).toEqual(['/firestore-ttl']);
});

test("hidesOtherReadersConversations: another reader's thread and message ids answer 404 exactly as unknown ids do", async ({
  alice,
  bob,
  fakeModel,
}) => {
  fakeModel.behave({ reply: ttlAnswer });
  const { threadId, refreshed } = await aliceConversation(alice);
  const before = { thread: await alice.stored(threadId), list: await alice.listed('regular') };
  const bobsThread = await bob.newThread();

  // Alice's thread, her question, and her rated answer to it; or ids nobody has.
  type Ids = { threadId: string; questionId: string; answerId: string };
  const attempts: Array<[string, (ids: Ids) => Promise<Response>]> = [
    ['read', (ids) => bob.call('GET', `/api/threads/${ids.threadId}`)],
    ['continue', (ids) => bob.startTurn({ threadId: ids.threadId, parentId: ids.answerId, text: 'Mine now' })],
    ['edit the first question', (ids) => bob.startTurn({ threadId: ids.threadId, parentId: null, text: 'Edited' })],
    [
      'ask after her answer in his own thread',
      (ids) => bob.startTurn({ threadId: bobsThread, parentId: ids.answerId, text: 'Grafted' }),
    ],
    ['refresh', (ids) => bob.startTurn({ threadId: ids.threadId, retryOf: ids.questionId })],
    ['refresh into his own thread', (ids) => bob.startTurn({ threadId: bobsThread, retryOf: ids.questionId })],
    ['rate', (ids) => bob.call('PUT', `/api/messages/${ids.answerId}/feedback`, { rating: 'negative' })],
    ['clear the rating', (ids) => bob.call('DELETE', `/api/messages/${ids.answerId}/feedback`)],
    ['rename', (ids) => bob.call('PATCH', `/api/threads/${ids.threadId}`, { title: 'Bob was here' })],
    ['archive', (ids) => bob.call('PATCH', `/api/threads/${ids.threadId}`, { status: 'archived' })],
    ['delete', (ids) => bob.call('DELETE', `/api/threads/${ids.threadId}`)],
  ];
  const unknown: Ids = { threadId: randomUUID(), questionId: randomUUID(), answerId: randomUUID() };
  for (const [what, attempt] of attempts) {
    const refused = await attempt({ threadId, questionId: refreshed.questionId, answerId: refreshed.answerId });
    const missing = await attempt(unknown);
    expect(refused.status, what).toBe(404);
    expect(await refused.json(), what).toEqual(await missing.json());
  }

  expect(await alice.stored(threadId)).toEqual(before.thread);
  expect(await alice.listed('regular')).toEqual(before.list);
  expect(await bob.listed('regular')).toEqual([expect.objectContaining({ id: bobsThread })]);
  expect((await bob.stored(bobsThread)).messages).toEqual([]);
});

test("stopsNoOneElsesAnswer: another reader's Stop while the first reader's answer is written answers 404, and the answer is kept whole", async ({
  alice,
  bob,
  fakeModel,
}) => {
  const reply = 'one two three four five six seven eight nine ten';
  fakeModel.behave({ reply, chunkDelayMs: 60 });
  const threadId = await alice.newThread();
  const answering = alice.startTurn({ threadId, parentId: null, text: 'Count to ten for me' });
  await expect.poll(() => fakeModel.received.length).toBeGreaterThan(0);

  const refused = await bob.call('POST', `/api/threads/${threadId}/stop`);
  expect(refused.status).toBe(404);
  expect(await refused.json()).toEqual(await (await bob.call('POST', `/api/threads/${randomUUID()}/stop`)).json());

  const response = await answering;
  expect(response.status).toBe(200);
  await response.text();
  const { messages } = await alice.stored(threadId);
  expect(messages.map((message) => message.status)).toEqual(['complete', 'complete']);
  expect(storedText(messages[1])).toBe(reply);
});

test('needs a session, and the handbook origin for changes', async ({ server, sessionCookie }) => {
  const turn = { threadId: randomUUID(), parentId: null, text: 'Hello' };
  const signedOut = readerApi(server.baseUrl, '');
  expect((await signedOut.call('GET', '/api/threads')).status).toBe(401);
  expect((await signedOut.startTurn(turn)).status).toBe(401);
  for (const [path, body] of [
    ['/api/threads', {}],
    ['/api/turns', turn],
  ] as const) {
    const foreign = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { cookie: sessionCookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(foreign.status, path).toBe(403);
  }
});

/**
 * The server's own store settings for a test database, as an operator would write them, with the one SESSION_SECRET
 * every start shares (session cookies carry a tag made with it).
 */
const environmentOf = (database: TestDatabase): Record<string, string> => ({
  SESSION_SECRET: 'one-secret-for-every-start-of-the-handbook',
  ...(database.options.databaseUrl
    ? { DATABASE_URL: database.options.databaseUrl }
    : { DATA_DIR: database.options.dataDirectory }),
});

for (const backend of testBackends.filter((candidate) => candidate.persistent)) {
  describe.skipIf(backend.skipped)(`conversations survive a server restart on ${backend.name}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    test('keeps threads, branches, feedback, archive and delete, and the session itself', async () => {
      const environment = environmentOf(database);
      let running = await startServerOnItsOwnStore(environment);
      try {
        const carol = readerApi(running.baseUrl, await sessionCookieFor(running.baseUrl, 'carol@acme.dev'));
        const newThread = async (question: string) => {
          const threadId = await carol.newThread();
          return carol.ask({ threadId, parentId: null, text: question });
        };
        const kept = await newThread('How do I register a GitLab runner?');
        const again = await carol.ask({ threadId: kept.threadId, retryOf: kept.questionId });
        const rated = await carol.call('PUT', `/api/messages/${kept.answerId}/feedback`, {
          rating: 'negative',
          comment: 'Vague',
        });
        expect(rated.status).toBe(200);
        const archived = await newThread('How do I use WSL?');
        expect((await carol.call('PATCH', `/api/threads/${archived.threadId}`, { status: 'archived' })).status).toBe(
          200,
        );
        const deleted = await newThread('What is the final exam pass mark?');
        expect((await carol.call('DELETE', `/api/threads/${deleted.threadId}`)).status).toBe(204);
        const before = await carol.stored(kept.threadId);

        await running.close();
        running = await startServerOnItsOwnStore(environment);
        const carolAfter = readerApi(running.baseUrl, carol.cookie);

        expect((await carolAfter.listed('regular')).map((thread) => thread.id)).toEqual([kept.threadId]);
        expect((await carolAfter.listed('archived')).map((thread) => thread.id)).toEqual([archived.threadId]);
        expect((await carolAfter.call('GET', `/api/threads/${deleted.threadId}`)).status).toBe(404);
        const { messages } = await carolAfter.stored(kept.threadId);
        expect(messages).toEqual(before.messages);
        const answers = answersTo(messages, kept.questionId);
        expect(answers.map((answer) => answer.id)).toEqual([kept.answerId, again.answerId]);
        expect(answers[0]?.feedback).toMatchObject({ rating: 'negative', comment: 'Vague' });
        // Who owns what survives too.
        const dave = readerApi(running.baseUrl, await sessionCookieFor(running.baseUrl, 'dave@acme.dev'));
        expect((await dave.call('GET', `/api/threads/${kept.threadId}`)).status).toBe(404);
      } finally {
        await running.close();
      }
    });
  });
}
