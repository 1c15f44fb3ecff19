import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { sessionCookieFor } from './sign-in';

/**
 * A server whose first search index is held back: its pages are served, and what needs the index refuses at once with
 * a time to try again, until the index is in.
 */
let server: TestServer;
let cookie: string;
let releaseIndex = () => {};

beforeAll(async () => {
  server = await startServer(
    { ASK_REQUESTS_PER_MINUTE: '1000', SEARCH_REQUESTS_PER_MINUTE: '1000' },
    {
      holdFirstSearch: new Promise<void>((resolve) => {
        releaseIndex = resolve;
      }),
    },
  );
  cookie = await sessionCookieFor(server.baseUrl, 'ada@acme.dev');
});
afterAll(async () => {
  releaseIndex();
  await server?.close();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const question = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I deploy?' }], attachments: [] }],
};

describe('while the first search index is being built', () => {
  it('serves the pages', async () => {
    expect((await call('GET', '/firestore-ttl')).status).toBe(200);
  });

  it('answers a search with 503 unavailable:search and a time to try again, at once', async () => {
    const response = await call('GET', '/api/search?q=deploy');
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable:search');
  });

  it('answers askAi with 503 unavailable:search and a time to try again', async () => {
    const response = await call('POST', '/api/askAi', question);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable:search');
  });

  it('refuses a Copilot turn with 503 before storing its question', async () => {
    const thread = (await (await call('POST', '/api/threads', { title: 'Deploys' })).json()) as { id: string };
    const response = await call('POST', '/api/turns', {
      threadId: thread.id,
      parentId: null,
      text: 'How do I deploy?',
    });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const stored = (await (await call('GET', `/api/threads/${thread.id}`)).json()) as { messages: unknown[] };
    expect(stored.messages).toEqual([]);
  });

  it('answers search and askAi once the index is in', async () => {
    releaseIndex();
    await server.app.searchIndex.ready();
    expect((await call('GET', '/api/search?q=deploy')).status).toBe(200);
    expect((await call('POST', '/api/askAi', question)).status).toBe(200);
  });
});
