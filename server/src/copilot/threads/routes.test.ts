import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Viewer } from '../../auth/viewer.js';
import { inMemoryDataDirectory, openStore, type Store } from '../../store/database.js';
import { threads } from '../../store/schema.js';
import {
  feedbackSchema,
  messageSchema,
  threadListResponseSchema,
  threadSchema,
  threadWithMessagesResponseSchema,
} from './contract.js';
import { threadRoutes } from './routes.js';

const publicOrigin = 'https://handbook.acme.example';
const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

/** Stands in for auth/viewer.ts: `x-test-user` signs in as that address, `x-test-not-allowed` denies it access. */
function viewerFrom(headers: Record<string, string | string[] | undefined>): Viewer {
  const email = headers['x-test-user'];
  if (typeof email !== 'string') return { state: 'signed-out' };
  const now = new Date();
  return {
    state: 'signed-in',
    idHash: `hash-of-${email}`,
    session: {
      idHash: `hash-of-${email}`,
      email,
      emailVerified: true,
      hostedDomain: 'acme.example',
      name: null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
    },
    access: headers['x-test-not-allowed']
      ? { allowed: false, reason: 'not-on-allow-list' }
      : { allowed: true, reason: 'domain' },
  };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

describe('thread routes', () => {
  let store: Store;
  let app: FastifyInstance;

  beforeAll(async () => {
    store = await openStore({ dataDirectory: inMemoryDataDirectory });
    app = Fastify();
    app.decorateRequest('viewer', null as never);
    app.addHook('onRequest', async (request) => {
      request.viewer = viewerFrom(request.headers);
    });
    await app.register(threadRoutes, { db: store.db, publicOrigin });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  beforeEach(async () => {
    await store.db.delete(threads);
  });

  function call(method: Method, url: string, options: { as?: string; body?: unknown; origin?: string | null } = {}) {
    const headers: Record<string, string> = {};
    if (options.as !== undefined) headers['x-test-user'] = options.as;
    const origin = options.origin === undefined ? publicOrigin : options.origin;
    if (origin !== null) headers.origin = origin;
    return app.inject({
      method,
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
  }

  async function newThread(as = ada, body: unknown = {}) {
    const response = await call('POST', '/api/threads', { as, body });
    expect(response.statusCode).toBe(201);
    return threadSchema.parse(response.json());
  }

  async function postMessage(threadId: string, body: Record<string, unknown>, as = ada) {
    const response = await call('POST', `/api/threads/${threadId}/messages`, { as, body });
    expect(response.statusCode, response.body).toBe(201);
    return messageSchema.parse(response.json());
  }

  const question = { parentId: null, role: 'user', content: [{ type: 'text', text: 'How do I deploy?' }] };

  const everyEndpoint: [Method, string][] = [
    ['GET', '/api/threads'],
    ['POST', '/api/threads'],
    ['GET', '/api/threads/t1'],
    ['PATCH', '/api/threads/t1'],
    ['DELETE', '/api/threads/t1'],
    ['POST', '/api/threads/t1/messages'],
    ['PUT', '/api/messages/m1/feedback'],
    ['DELETE', '/api/messages/m1/feedback'],
  ];

  it.each(everyEndpoint)('rejectsSignedOutReader: %s %s answers 401 without caching', async (method, url) => {
    const response = await call(method, url, { body: {} });

    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ error: { code: 'unauthorized:session' } });
  });

  it.each(everyEndpoint)('rejectsSignedInReaderWithoutAccess: %s %s answers 403', async (method, url) => {
    const response = await app.inject({
      method,
      url,
      headers: { 'x-test-user': ada, 'x-test-not-allowed': '1', origin: publicOrigin },
    });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'forbidden:access' } });
  });

  it.each(everyEndpoint.filter(([method]) => method !== 'GET'))(
    'rejectsCrossSiteChange: %s %s from another origin or none answers 403',
    async (method, url) => {
      for (const origin of ['https://evil.example', 'https://handbook.acme.example.evil.example', null]) {
        const response = await call(method, url, { as: ada, origin, body: {} });

        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error: { code: 'forbidden:origin' } });
      }
    },
  );

  it('reads without an Origin header, as a same-origin GET sends none', async () => {
    const response = await call('GET', '/api/threads', { as: ada, origin: null });

    expect(response.statusCode).toBe(200);
  });

  it('creates a thread, with or without a body, and lists it newest first', async () => {
    const first = await call('POST', '/api/threads', { as: ada });
    // PGlite's clock counts whole milliseconds; the order needs two different creation times.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = await newThread(ada, { title: '  Deploys  ' });

    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({ title: 'New chat', status: 'regular' });
    expect(second.title).toBe('Deploys');
    const list = await call('GET', '/api/threads', { as: ada });
    expect(list.headers['cache-control']).toBe('no-store');
    expect(threadListResponseSchema.parse(list.json()).threads.map((thread) => thread.title)).toEqual([
      'Deploys',
      'New chat',
    ]);
  });

  it('filters the list by status and archives, unarchives and renames through PATCH', async () => {
    const thread = await newThread();
    const patch = (body: unknown) => call('PATCH', `/api/threads/${thread.id}`, { as: ada, body });
    const idsWith = async (status: string) =>
      threadListResponseSchema
        .parse((await call('GET', `/api/threads?status=${status}`, { as: ada })).json())
        .threads.map((listed) => listed.id);

    expect((await patch({ status: 'archived', title: 'Old' })).json()).toMatchObject({
      status: 'archived',
      title: 'Old',
    });
    expect(await idsWith('archived')).toEqual([thread.id]);
    expect(await idsWith('regular')).toEqual([]);

    const again = await patch({ status: 'archived' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'conflict:thread_status' } });

    expect((await patch({ status: 'regular' })).json()).toMatchObject({ status: 'regular' });
    expect((await patch({ status: 'regular' })).statusCode).toBe(409);
    expect((await patch({ title: 'Renamed' })).json()).toMatchObject({ title: 'Renamed', status: 'regular' });
  });

  it.each([
    ['POST', '/api/threads', { title: '' }, 'title: title must not be empty'],
    ['POST', '/api/threads', { title: 'x'.repeat(201) }, 'title: title must be at most 200 characters'],
    ['POST', '/api/threads', { title: 'ok', owner: eve }, 'Unrecognized key: "owner"'],
    ['PATCH', '/api/threads/:id', {}, 'give a title, a status or both'],
    ['PATCH', '/api/threads/:id', { status: 'deleted' }, 'status: status must be "regular" or "archived"'],
    ['POST', '/api/threads/:id/messages', { ...question, role: 'system' }, 'role: role must be "user" or "assistant"'],
    ['POST', '/api/threads/:id/messages', { role: 'user', content: [] }, 'parentId'],
    [
      'POST',
      '/api/threads/:id/messages',
      { ...question, content: [{ type: 'text', text: 'x'.repeat(32_001) }] },
      'content: at most 32000 characters of text in all',
    ],
    [
      'POST',
      '/api/threads/:id/messages',
      { ...question, attachments: [{ name: 'a.png', contentType: 'image/png', size: 3, content: 'iVBORw0K' }] },
      'Unrecognized key: "content"',
    ],
    ['POST', '/api/threads/:id/messages', { ...question, id: '__optimistic__/1' }, 'id: message ids are 1-100'],
  ] as const)('rejects bad input: %s %s %j', async (method, url, body, message) => {
    const thread = await newThread();

    const response = await call(method, url.replace(':id', thread.id), { as: ada, body });

    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('bad_request:input');
    expect(response.json().error.message).toContain(message);
  });

  it('rejects a body that is not JSON with a readable 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/threads',
      headers: { 'x-test-user': ada, origin: publicOrigin, 'content-type': 'application/json' },
      payload: '{"title":',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'bad_request:input' } });
  });

  it('rejects an unknown list filter', async () => {
    const response = await call('GET', '/api/threads?status=deleted', { as: ada });

    expect(response.statusCode).toBe(400);
  });

  it('saves a conversation with branches and feedback and reads it back', async () => {
    const thread = await newThread();
    const asked = await postMessage(thread.id, {
      ...question,
      id: 'user-1',
      attachments: [{ name: 'shot.png', contentType: 'image/png', size: 2048 }],
    });
    const first = await postMessage(thread.id, {
      parentId: asked.id,
      role: 'assistant',
      content: [{ type: 'text', text: 'Run the pipeline.' }],
      sources: [{ title: 'Deploying', url: '/docs/deploying' }],
    });
    const second = await postMessage(thread.id, {
      parentId: asked.id,
      role: 'assistant',
      content: [{ type: 'text', text: 'Stopped.' }],
      status: 'incomplete',
    });

    const rated = await call('PUT', `/api/messages/${second.id}/feedback`, {
      as: ada,
      body: { rating: 'negative', comment: 'Cut off' },
    });
    expect(rated.statusCode).toBe(200);
    expect(feedbackSchema.parse(rated.json())).toMatchObject({ rating: 'negative', comment: 'Cut off' });

    const read = await call('GET', `/api/threads/${thread.id}`, { as: ada });
    expect(read.headers['cache-control']).toBe('no-store');
    const body = threadWithMessagesResponseSchema.parse(read.json());
    expect(body.thread.title).toBe('How do I deploy?');
    expect(body.messages.map((message) => [message.id, message.parentId, message.feedback?.rating ?? null])).toEqual([
      ['user-1', null, null],
      [first.id, 'user-1', null],
      [second.id, 'user-1', 'negative'],
    ]);
    expect(body.messages[0]?.attachments).toEqual([{ name: 'shot.png', contentType: 'image/png', size: 2048 }]);

    const replaced = await call('PUT', `/api/messages/${second.id}/feedback`, {
      as: ada,
      body: { rating: 'positive' },
    });
    expect(replaced.json()).toMatchObject({ rating: 'positive', comment: null });
    const cleared = await call('DELETE', `/api/messages/${second.id}/feedback`, { as: ada });
    expect(cleared.statusCode).toBe(204);
    const afterClear = threadWithMessagesResponseSchema.parse(
      (await call('GET', `/api/threads/${thread.id}`, { as: ada })).json(),
    );
    expect(afterClear.messages[2]?.feedback).toBeNull();
  });

  it('refuses a parent from another thread, a reused message id and feedback on a question', async () => {
    const thread = await newThread();
    const other = await newThread();
    const elsewhere = await postMessage(other.id, { ...question, id: 'taken' });

    const wrongParent = await call('POST', `/api/threads/${thread.id}/messages`, {
      as: ada,
      body: { ...question, parentId: elsewhere.id },
    });
    const reused = await call('POST', `/api/threads/${thread.id}/messages`, {
      as: ada,
      body: { ...question, id: 'taken' },
    });
    const ratedQuestion = await call('PUT', `/api/messages/${elsewhere.id}/feedback`, {
      as: ada,
      body: { rating: 'positive' },
    });

    expect([wrongParent.statusCode, wrongParent.json().error.code]).toEqual([400, 'bad_request:parent_id']);
    expect([reused.statusCode, reused.json().error.code]).toEqual([409, 'conflict:message_id']);
    expect([ratedQuestion.statusCode, ratedQuestion.json().error.code]).toEqual([400, 'bad_request:feedback_role']);
  });

  it('deletes a thread with its messages', async () => {
    const thread = await newThread();
    await postMessage(thread.id, question);

    const deleted = await call('DELETE', `/api/threads/${thread.id}`, { as: ada });

    expect(deleted.statusCode).toBe(204);
    expect((await call('GET', `/api/threads/${thread.id}`, { as: ada })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/threads/${thread.id}`, { as: ada })).statusCode).toBe(404);
  });

  it("hidesOtherReadersThreads: every endpoint answers 404 for another reader's thread or message, as for a missing one", async () => {
    const thread = await newThread(ada, { title: 'Private' });
    const asked = await postMessage(thread.id, question);
    const answered = await postMessage(thread.id, {
      parentId: asked.id,
      role: 'assistant',
      content: [{ type: 'text', text: 'Secret answer' }],
    });
    const before = (await call('GET', `/api/threads/${thread.id}`, { as: ada })).json();

    for (const [threadId, messageId] of [
      [thread.id, answered.id],
      ['missing-thread', 'missing-message'],
    ] as const) {
      const attempts: [Method, string, unknown, string][] = [
        ['GET', `/api/threads/${threadId}`, undefined, 'not_found:thread'],
        ['PATCH', `/api/threads/${threadId}`, { title: 'Mine' }, 'not_found:thread'],
        ['PATCH', `/api/threads/${threadId}`, { status: 'archived' }, 'not_found:thread'],
        ['DELETE', `/api/threads/${threadId}`, undefined, 'not_found:thread'],
        ['POST', `/api/threads/${threadId}/messages`, question, 'not_found:thread'],
        ['PUT', `/api/messages/${messageId}/feedback`, { rating: 'negative' }, 'not_found:message'],
        ['DELETE', `/api/messages/${messageId}/feedback`, undefined, 'not_found:message'],
      ];
      for (const [method, url, body, code] of attempts) {
        const response = await call(method, url, { as: eve, body });

        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().error.code).toBe(code);
        expect(response.body).not.toContain('Private');
      }
    }
    expect(threadListResponseSchema.parse((await call('GET', '/api/threads', { as: eve })).json()).threads).toEqual([]);
    expect((await call('GET', `/api/threads/${thread.id}`, { as: ada })).json()).toEqual(before);
  });
});
