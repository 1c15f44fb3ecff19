import { threadSchema, threadWithMessagesResponseSchema } from '@acme/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { copilotApiForSuite, publicOrigin, readChunks } from '../../../test-support/copilot-api.js';
import { threads } from '../../store/schema.js';

/** PUT /api/threads/:id/head: the branch the reader switched to, which the thread reopens on. */
describe('the branch a thread reopens on, through the API', () => {
  const ada = 'ada@acme.example';
  const suite = copilotApiForSuite();

  beforeEach(async () => {
    await suite.store.db.delete(threads);
  });

  const call = (method: string, path: string, body?: unknown) => suite.api.call(method, path, { as: ada, body });
  const headOf = async (threadId: string) =>
    threadWithMessagesResponseSchema.parse(await (await call('GET', `/api/threads/${threadId}`)).json()).headId;

  /** Asks through POST /api/turns, as the widget does, and gives the ids the server made for the question and answer. */
  async function ask(body: Record<string, unknown>) {
    const response = await call('POST', '/api/turns', body);
    expect(response.status, await response.clone().text()).toBe(200);
    const turn = (await readChunks(response)).find((chunk) => chunk.type === 'data-turn');
    if (turn?.type !== 'data-turn') throw new Error('The turn streamed no data-turn part');
    return turn.data as { threadId: string; questionId: string; answerId: string };
  }

  /** A thread whose question was answered, then answered again (Refresh): its two answers are two branches. */
  async function refreshedThread() {
    const thread = threadSchema.parse(await (await call('POST', '/api/threads')).json());
    const first = await ask({ threadId: thread.id, parentId: null, text: 'How do I roll back?' });
    const second = await ask({ threadId: thread.id, retryOf: first.questionId });
    return { threadId: thread.id, first: first.answerId, second: second.answerId };
  }

  it('reads back the branch switched to; null, the newest, before any switch', async () => {
    const { threadId, first } = await refreshedThread();
    expect(await headOf(threadId)).toBeNull();

    const switched = await call('PUT', `/api/threads/${threadId}/head`, { messageId: first });

    expect(switched.status).toBe(200);
    expect(await switched.json()).toEqual({ title: 'How do I roll back?' });
    expect(await headOf(threadId)).toBe(first);
  });

  it.each([
    ['no message', {}, 'messageId'],
    ['a number', { messageId: 7 }, 'messageId'],
    ['an id with a quote', { messageId: "x' or 1=1" }, 'ids are 1-100'],
    ['a field more', { messageId: 'x', reader: 'eve@acme.example' }, 'Unrecognized key: "reader"'],
    ['null', null, ''],
  ])('refuses a body with %s with a 400 that says why, changing nothing', async (_, body, says) => {
    const { threadId } = await refreshedThread();

    const response = await call('PUT', `/api/threads/${threadId}/head`, body);

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('bad_request:input');
    expect(error.message).toContain(says);
    expect(await headOf(threadId)).toBeNull();
  });

  it('refuses a message of another thread, or none, with 404 not_found:message, changing nothing', async () => {
    const { threadId } = await refreshedThread();
    const other = await refreshedThread();

    for (const messageId of [other.first, 'missing-message']) {
      const response = await call('PUT', `/api/threads/${threadId}/head`, { messageId });

      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found:message');
    }
    expect(await headOf(threadId)).toBeNull();
  });

  it('refuses a body that is not JSON with a readable 400', async () => {
    const { threadId } = await refreshedThread();
    const response = await fetch(`${suite.api.baseUrl}/api/threads/${threadId}/head`, {
      method: 'PUT',
      headers: { 'x-test-user': ada, origin: publicOrigin, 'content-type': 'application/json' },
      body: '{"messageId":',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_request:input' } });
  });
});
