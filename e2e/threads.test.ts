import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testBackends } from '../server/test-support/test-databases.js';
import { startServer, startServerOnItsOwnStore, type TestServer } from './harness';
import { signIn } from './sign-in';

let server: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  server = await startServer();
  alice = `acme_session=${(await signIn(server.baseUrl, { email: 'alice@acme.dev' })).jar.get('acme_session')}`;
  bob = `acme_session=${(await signIn(server.baseUrl, { email: 'bob@acme.io' })).jar.get('acme_session')}`;
});
afterAll(async () => {
  await server?.close();
});

function call(cookie: string, method: string, path: string, body?: unknown) {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('conversations through the real sign-in', () => {
  it('keeps a thread with its branches for its owner and hides it from everyone else', async () => {
    const created = await call(alice, 'POST', '/api/threads', {});
    expect(created.status).toBe(201);
    const thread = (await created.json()) as { id: string };
    const userMessage = await call(alice, 'POST', `/api/threads/${thread.id}/messages`, {
      id: 'question-1',
      parentId: null,
      role: 'user',
      content: [{ type: 'text', text: 'How do I create a TTL policy?' }],
    });
    expect(userMessage.status).toBe(201);
    for (const id of ['answer-1', 'answer-2']) {
      const reply = await call(alice, 'POST', `/api/threads/${thread.id}/messages`, {
        id,
        parentId: 'question-1',
        role: 'assistant',
        content: [{ type: 'text', text: `Answer ${id}` }],
        sources: [{ title: 'Firestore TTL', url: '/firestore-ttl' }],
      });
      expect(reply.status).toBe(201);
    }
    expect((await call(alice, 'PUT', '/api/messages/answer-2/feedback', { rating: 'positive' })).status).toBe(200);

    const loaded = (await (await call(alice, 'GET', `/api/threads/${thread.id}`)).json()) as {
      thread: { title: string };
      messages: Array<{ id: string; parentId: string | null; feedback?: { rating: string } | null }>;
    };
    expect(loaded.thread.title).toBe('How do I create a TTL policy?');
    expect(loaded.messages.filter((message) => message.parentId === 'question-1').map((message) => message.id)).toEqual(
      ['answer-1', 'answer-2'],
    );

    expect((await call(bob, 'GET', `/api/threads/${thread.id}`)).status).toBe(404);
    expect((await call(bob, 'DELETE', `/api/threads/${thread.id}`)).status).toBe(404);
    expect((await call(bob, 'PUT', '/api/messages/answer-1/feedback', { rating: 'negative' })).status).toBe(404);
    const bobsList = (await (await call(bob, 'GET', '/api/threads')).json()) as { threads: unknown[] };
    expect(bobsList.threads).toEqual([]);
  });

  it('needs a session, and the handbook origin for changes', async () => {
    expect((await call('', 'GET', '/api/threads')).status).toBe(401);
    const foreign = await fetch(`${server.baseUrl}/api/threads`, {
      method: 'POST',
      headers: { cookie: alice, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
  });
});

/** The server's own store settings for a test database, as an operator would write them. */
const environmentOf = (database: TestDatabase): Record<string, string> =>
  database.options.databaseUrl
    ? { DATABASE_URL: database.options.databaseUrl }
    : { DATA_DIR: database.options.dataDirectory };

for (const backend of testBackends.filter((candidate) => candidate.persistent)) {
  describe.skipIf(backend.skipped)(`conversations survive a server restart on ${backend.name}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('keeps threads, branches, feedback, archive and delete, and the session itself', async () => {
      const environment = environmentOf(database);
      let running = await startServerOnItsOwnStore(environment);
      try {
        const session = `acme_session=${(await signIn(running.baseUrl, { email: 'carol@acme.dev' })).jar.get('acme_session')}`;
        const send = (method: string, path: string, body?: unknown) =>
          fetch(`${running.baseUrl}${path}`, {
            method,
            headers: {
              cookie: session,
              origin: running.baseUrl,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        const newThread = async (question: string) => {
          const thread = (await (await send('POST', '/api/threads', {})).json()) as { id: string };
          const asked = await send('POST', `/api/threads/${thread.id}/messages`, {
            parentId: null,
            role: 'user',
            content: [{ type: 'text', text: question }],
          });
          return { id: thread.id, questionId: ((await asked.json()) as { id: string }).id };
        };

        const kept = await newThread('How do I register a GitLab runner?');
        for (const id of [`${backend.kind}-answer-1`, `${backend.kind}-answer-2`]) {
          const reply = await send('POST', `/api/threads/${kept.id}/messages`, {
            id,
            parentId: kept.questionId,
            role: 'assistant',
            content: [{ type: 'text', text: `Answer ${id}` }],
          });
          expect(reply.status).toBe(201);
        }
        const rated = await send('PUT', `/api/messages/${backend.kind}-answer-1/feedback`, {
          rating: 'negative',
          comment: 'Vague',
        });
        expect(rated.status).toBe(200);
        const archived = await newThread('How do I use WSL?');
        expect((await send('PATCH', `/api/threads/${archived.id}`, { status: 'archived' })).status).toBe(200);
        const deleted = await newThread('What is the final exam pass mark?');
        expect((await send('DELETE', `/api/threads/${deleted.id}`)).status).toBe(204);

        await running.close();
        running = await startServerOnItsOwnStore(environment);

        const listOf = async (status: string) =>
          ((await (await send('GET', `/api/threads?status=${status}`)).json()) as { threads: Array<{ id: string }> })
            .threads;
        expect((await listOf('regular')).map((thread) => thread.id)).toEqual([kept.id]);
        expect((await listOf('archived')).map((thread) => thread.id)).toEqual([archived.id]);
        expect((await send('GET', `/api/threads/${deleted.id}`)).status).toBe(404);
        const loaded = (await (await send('GET', `/api/threads/${kept.id}`)).json()) as {
          messages: Array<{
            id: string;
            parentId: string | null;
            feedback: { rating: string; comment?: string } | null;
          }>;
        };
        const answers = loaded.messages.filter((message) => message.parentId === kept.questionId);
        expect(answers.map((message) => message.id)).toEqual([`${backend.kind}-answer-1`, `${backend.kind}-answer-2`]);
        expect(answers[0]?.feedback).toMatchObject({ rating: 'negative', comment: 'Vague' });
      } finally {
        await running.close();
      }
    });
  });
}
