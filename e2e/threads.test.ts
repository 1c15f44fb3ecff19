import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
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
