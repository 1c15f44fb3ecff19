import { readFileSync } from 'node:fs';
import {
  feedbackSchema,
  threadListResponseSchema,
  threadSchema,
  threadWithMessagesResponseSchema,
} from '@acme/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { copilotApiForSuite, readChunks } from '../../../test-support/copilot-api.js';
import { messages, questions, threads } from '../../store/schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';
const screenshot = readFileSync(new URL('../../../test-support/fixtures/blank-terminal.png', import.meta.url));

describe('thread routes', () => {
  // Docs-only answers; the limit is out of the way of the many questions these tests ask.
  const suite = copilotApiForSuite({ environment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

  beforeEach(async () => {
    await suite.store.db.delete(threads);
    await suite.store.db.delete(questions);
  });

  const call = (method: string, path: string, options: { as?: string; body?: unknown } = {}) =>
    suite.api.call(method, path, { as: ada, ...options });

  async function newThread(as = ada, body: unknown = {}) {
    const response = await call('POST', '/api/threads', { as, body });
    expect(response.status).toBe(201);
    return threadSchema.parse(await response.json());
  }

  async function read(threadId: string) {
    const response = await call('GET', `/api/threads/${threadId}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return threadWithMessagesResponseSchema.parse(await response.json());
  }

  /** Asks through POST /api/turns, as the widget does, and gives the ids the server made for the question and answer. */
  async function ask(body: Record<string, unknown>) {
    const response = await call('POST', '/api/turns', { body });
    expect(response.status, await response.clone().text()).toBe(200);
    const turn = (await readChunks(response)).find((chunk) => chunk.type === 'data-turn');
    if (turn?.type !== 'data-turn') throw new Error('The turn streamed no data-turn part');
    return turn.data as { threadId: string; questionId: string; answerId: string };
  }

  it('creates a thread, with or without a body, and lists it newest first', async () => {
    const first = await call('POST', '/api/threads');
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const created = threadSchema.parse(await first.json());
    expect(created).toMatchObject({ title: 'New chat', status: 'regular' });
    // Set a minute back: two requests in a row may read the same database clock.
    const minuteAgo = new Date(Date.now() - 60_000);
    await suite.store.db
      .update(threads)
      .set({ createdAt: minuteAgo, updatedAt: minuteAgo })
      .where(eq(threads.id, created.id));
    const second = await newThread(ada, { title: '  Deploys  ' });

    expect(second.title).toBe('Deploys');
    const list = await call('GET', '/api/threads');
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(threadListResponseSchema.parse(await list.json()).threads.map((thread) => thread.title)).toEqual([
      'Deploys',
      'New chat',
    ]);
  });

  it('answers the list a page at a time: 50 unless asked, nextCursor to the next page, null on the last', async () => {
    // The store keys threads on the reader's subject: read Ada's key off a thread she made.
    const made = await newThread(ada);
    const [{ reader } = { reader: '' }] = await suite.store.db
      .select({ reader: threads.reader })
      .from(threads)
      .where(eq(threads.id, made.id));
    await suite.store.db.delete(threads);
    const start = Date.now() - 3_600_000;
    await suite.store.db.insert(threads).values(
      Array.from({ length: 53 }, (_, i) => ({
        id: `paged-${String(i).padStart(2, '0')}`,
        reader,
        title: `Chat ${i}`,
        updatedAt: new Date(start + i * 1000),
      })),
    );
    await newThread(eve);
    const page = async (query: string) => {
      const response = await call('GET', `/api/threads${query}`);
      expect(response.status, await response.clone().text()).toBe(200);
      return threadListResponseSchema.parse(await response.json());
    };

    const first = await page('');
    expect(first.threads).toHaveLength(50);
    expect(first.threads[0]?.title).toBe('Chat 52');
    expect(first.nextCursor).not.toBeNull();
    const rest = await page(`?after=${first.nextCursor}`);
    expect(rest.threads.map((thread) => thread.title)).toEqual(['Chat 2', 'Chat 1', 'Chat 0']);
    expect(rest.nextCursor).toBeNull();

    const titles: string[] = [];
    let next: string | null = '';
    while (next !== null) {
      const answer = await page(`?limit=20${next ? `&after=${encodeURIComponent(next)}` : ''}`);
      titles.push(...answer.threads.map((thread) => thread.title));
      next = answer.nextCursor;
    }
    expect(titles).toEqual(Array.from({ length: 53 }, (_, i) => `Chat ${52 - i}`));
  });

  it.each([
    ['limit=0', 'limit is at least 1'],
    ['limit=201', 'limit is at most 200'],
    ['limit=2.5', 'limit is a whole number of chats'],
    ['limit=many', 'limit is a number of chats'],
    ['after=yesterday', 'after is the nextCursor of a page of this list'],
    ['after=1_', 'after is the nextCursor of a page of this list'],
    ['after=9999999999999999999_x', 'after is the nextCursor of a page of this list'],
    ['after=1_a%27%20or%201=1', 'after is the nextCursor of a page of this list'],
    ['page=2', ''],
  ])('refuses a list query of %s with a 400 that says why', async (query, says) => {
    const response = await call('GET', `/api/threads?${query}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_request:input');
    expect(body.error.message).toContain(says);
  });

  it('filters the list by status and archives, unarchives and renames through PATCH', async () => {
    const thread = await newThread();
    const patch = (body: unknown) => call('PATCH', `/api/threads/${thread.id}`, { body });
    const idsWith = async (status: string) =>
      threadListResponseSchema
        .parse(await (await call('GET', `/api/threads?status=${status}`)).json())
        .threads.map((listed) => listed.id);

    expect(await (await patch({ status: 'archived', title: 'Old' })).json()).toMatchObject({
      status: 'archived',
      title: 'Old',
    });
    expect(await idsWith('archived')).toEqual([thread.id]);
    expect(await idsWith('regular')).toEqual([]);

    const again = await patch({ status: 'archived' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'conflict:thread_status' } });

    expect(await (await patch({ status: 'regular' })).json()).toMatchObject({ status: 'regular' });
    expect((await patch({ status: 'regular' })).status).toBe(409);
    expect(await (await patch({ title: 'Renamed' })).json()).toMatchObject({ title: 'Renamed', status: 'regular' });
  });

  it.each([
    ['POST', '/api/threads', { title: '' }, 'title: title must not be empty'],
    ['POST', '/api/threads', { title: 'x'.repeat(201) }, 'title: title must be at most 200 characters'],
    ['POST', '/api/threads', { title: 'ok', reader: eve }, 'Unrecognized key: "reader"'],
    ['PATCH', '/api/threads/:id', {}, 'give a title, a status or both'],
    ['PATCH', '/api/threads/:id', { status: 'deleted' }, 'status: status must be "regular" or "archived"'],
    ['PATCH', '/api/threads/__optimistic__.1', { title: 'ok' }, 'id: ids are 1-100'],
    ['PUT', '/api/messages/:id/feedback', { rating: 'meh' }, 'rating: rating must be "positive" or "negative"'],
    ['PUT', '/api/messages/:id/feedback', { rating: 'negative', comment: 'x'.repeat(1001) }, 'at most 1000'],
  ] as const)('rejects bad input: %s %s %j', async (method, path, body, message) => {
    const thread = await newThread();

    const response = await call(method, path.replace(':id', thread.id), { body });

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('bad_request:input');
    expect(error.message).toContain(message);
  });

  it('reads back a conversation with its branches, and sets, replaces and clears feedback on an answer', async () => {
    const thread = await newThread();
    const image = { type: 'image', contentType: 'image/png', content: screenshot.toString('base64'), name: 'shot.png' };
    const first = await ask({ threadId: thread.id, parentId: null, text: 'How do I roll back?', attachments: [image] });
    const second = await ask({ threadId: thread.id, retryOf: first.questionId, attachments: [image] });

    const rated = await call('PUT', `/api/messages/${second.answerId}/feedback`, {
      body: { rating: 'negative', comment: 'Cut off' },
    });
    expect(rated.status).toBe(200);
    expect(feedbackSchema.parse(await rated.json())).toMatchObject({ rating: 'negative', comment: 'Cut off' });

    const { thread: named, messages } = await read(thread.id);
    expect(named.title).toBe('How do I roll back?');
    expect(messages.map((message) => [message.id, message.parentId, message.feedback?.rating ?? null])).toEqual([
      [first.questionId, null, null],
      [first.answerId, first.questionId, null],
      [second.answerId, first.questionId, 'negative'],
    ]);
    expect(messages[0]?.attachments).toEqual([{ name: 'shot.png', contentType: 'image/png', size: screenshot.length }]);
    expect(messages[1]?.sources.map((source) => source.url)).toContain('/deployment#rollback');

    const replaced = await call('PUT', `/api/messages/${second.answerId}/feedback`, { body: { rating: 'positive' } });
    expect(await replaced.json()).toMatchObject({ rating: 'positive', comment: null });
    const cleared = await call('DELETE', `/api/messages/${second.answerId}/feedback`);
    expect(cleared.status).toBe(204);
    expect((await read(thread.id)).messages[2]?.feedback).toBeNull();
  });

  it("refuses feedback on a question, and a parent from another of the reader's chats", async () => {
    const thread = await newThread();
    const other = await newThread();
    const elsewhere = await ask({ threadId: other.id, parentId: null, text: 'How do I roll back?' });

    const ratedQuestion = await call('PUT', `/api/messages/${elsewhere.questionId}/feedback`, {
      body: { rating: 'positive' },
    });
    const wrongParent = await call('POST', '/api/turns', {
      body: { threadId: thread.id, parentId: elsewhere.answerId, text: 'And then?' },
    });

    expect([ratedQuestion.status, (await ratedQuestion.json()).error.code]).toEqual([400, 'bad_request:feedback_role']);
    expect([wrongParent.status, (await wrongParent.json()).error.code]).toEqual([404, 'not_found:message']);
    expect((await read(thread.id)).messages).toEqual([]);
  });

  it('deletes a thread with its messages and their feedback', async () => {
    const thread = await newThread();
    const turn = await ask({ threadId: thread.id, parentId: null, text: 'How do I roll back?' });
    await call('PUT', `/api/messages/${turn.answerId}/feedback`, { body: { rating: 'negative' } });

    const deleted = await call('DELETE', `/api/threads/${thread.id}`);

    expect(deleted.status).toBe(204);
    expect((await call('GET', `/api/threads/${thread.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/threads/${thread.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/messages/${turn.answerId}/feedback`)).status).toBe(404);
  });

  it("hidesOtherReadersThreads: every endpoint answers 404 for another reader's thread or message, as for a missing one", async () => {
    const thread = await newThread(ada, { title: 'Private' });
    const turn = await ask({ threadId: thread.id, parentId: null, text: 'How do I roll back?' });
    const before = await read(thread.id);

    for (const [threadId, messageId] of [
      [thread.id, turn.answerId],
      ['missing-thread', 'missing-message'],
    ] as const) {
      const attempts: [string, string, unknown, string][] = [
        ['GET', `/api/threads/${threadId}`, undefined, 'not_found:thread'],
        ['PATCH', `/api/threads/${threadId}`, { title: 'Mine' }, 'not_found:thread'],
        ['PATCH', `/api/threads/${threadId}`, { status: 'archived' }, 'not_found:thread'],
        ['DELETE', `/api/threads/${threadId}`, undefined, 'not_found:thread'],
        ['POST', '/api/turns', { threadId, parentId: messageId, text: 'Mine now' }, 'not_found:thread'],
        ['POST', '/api/turns', { threadId, retryOf: turn.questionId }, 'not_found:thread'],
        ['POST', `/api/threads/${threadId}/stop`, undefined, 'not_found:answer'],
        ['PUT', `/api/threads/${threadId}/head`, { messageId }, 'not_found:thread'],
        ['PUT', `/api/messages/${messageId}/feedback`, { rating: 'negative' }, 'not_found:message'],
        ['DELETE', `/api/messages/${messageId}/feedback`, undefined, 'not_found:message'],
      ];
      for (const [method, path, body, code] of attempts) {
        const response = await call(method, path, { as: eve, body });

        expect(response.status, `${method} ${path}`).toBe(404);
        const text = await response.text();
        expect(JSON.parse(text).error.code).toBe(code);
        expect(text).not.toContain('Private');
      }
    }
    expect(
      threadListResponseSchema.parse(await (await call('GET', '/api/threads', { as: eve })).json()).threads,
    ).toEqual([]);
    expect(await read(thread.id)).toEqual(before);
  });

  it('endsAnAnswerCutByADeadInstance on Stop, instead of answering 404 while it stays running', async () => {
    const thread = await newThread();
    const turn = await ask({ threadId: thread.id, parentId: null, text: 'How do I roll back?' });
    // As the store looks after an instance died mid-answer: still running, nothing written for over a minute.
    await suite.store.db
      .update(messages)
      .set({ status: 'running', progressAt: sql`now() - interval '2 minutes'` })
      .where(eq(messages.id, turn.answerId));

    expect((await call('POST', `/api/threads/${thread.id}/stop`, { as: eve })).status).toBe(404);
    expect((await call('POST', `/api/threads/${thread.id}/stop`)).status).toBe(204);

    expect((await read(thread.id)).messages.find((message) => message.id === turn.answerId)?.status).toBe('incomplete');
    expect((await call('POST', `/api/threads/${thread.id}/stop`)).status).toBe(404);
  });
});
