import { describe, expect, it } from 'vitest';
import { readChunks, textOf, turnIds, verdictOf, waitFor } from '../../../test-support/copilot-api.js';
import { type CopilotApi as Api, copilotSuite } from '../../../test-support/copilot-suite.js';
import { storedText } from '../../../test-support/messages.js';
import { questions } from '../../store/schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

describe('a Dev Copilot turn', () => {
  const suite = copilotSuite();

  const newThread = (api: Api, as = ada) => api.newThread(as);
  const ask = (api: Api, body: Record<string, unknown>, as = ada) => api.turn(body, as);
  const stored = (api: Api, threadId: string, as = ada) => api.stored(threadId, as);

  it('stores the question, streams the answer with its sources, and stores the answer under the ids it streamed', async () => {
    const threadId = await newThread(suite.docsOnly);

    const chunks = await ask(suite.docsOnly, { threadId, parentId: null, text: 'How do I roll back a release?' });

    const ids = turnIds(chunks);
    expect(chunks[0]).toEqual({ type: 'start', messageId: ids.answerId });
    // The thread is named after its first question, and the stream says so: the widget reads no thread for it.
    expect(ids.title).toBe('How do I roll back a release?');
    expect(await verdictOf(suite.store, chunks)).toEqual({ mode: 'docs-only', covered: true, confidence: 'answered' });
    expect(chunks.filter((chunk) => chunk.type === 'source-url').map((chunk) => chunk.url)).toContain(
      '/deployment#rollback',
    );
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const { thread, messages } = await stored(suite.docsOnly, threadId);
    expect(thread.title).toBe('How do I roll back a release?');
    expect(messages.map((message) => [message.id, message.role, message.parentId, message.status])).toEqual([
      [ids.questionId, 'user', null, 'complete'],
      [ids.answerId, 'assistant', ids.questionId, 'complete'],
    ]);
    expect(storedText(messages[1])).toBe(textOf(chunks));
    expect(messages[1]?.sources.map((source) => source.url)).toContain('/deployment#rollback');
    const logged = await suite.store.db.select().from(questions);
    expect(logged.map((entry) => [entry.answerMessageId, entry.covered])).toEqual([[ids.answerId, true]]);
  });

  it('branches on the server: an edit is a second question under the same parent, a refresh a second answer', async () => {
    const threadId = await newThread(suite.docsOnly);
    const first = turnIds(await ask(suite.docsOnly, { threadId, parentId: null, text: 'How do I roll back?' }));
    const followUp = turnIds(
      await ask(suite.docsOnly, { threadId, parentId: first.answerId, text: 'And the release checklist?' }),
    );
    const edited = turnIds(await ask(suite.docsOnly, { threadId, parentId: null, text: 'Who gives staging access?' }));
    const refreshed = turnIds(await ask(suite.docsOnly, { threadId, retryOf: first.questionId }));

    const { messages } = await stored(suite.docsOnly, threadId);
    const parentOf = new Map(messages.map((message) => [message.id, message.parentId]));
    expect(parentOf.get(followUp.questionId)).toBe(first.answerId);
    expect(parentOf.get(edited.questionId)).toBeNull();
    expect(refreshed.questionId).toBe(first.questionId);
    expect(parentOf.get(refreshed.answerId)).toBe(first.questionId);
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(3);
    expect(messages).toHaveLength(7);
    // The first question named the thread and a follow-up kept the name; an edit of the first question renamed it.
    expect([first, followUp, edited, refreshed].map((turn) => turn.title)).toEqual([
      'How do I roll back?',
      'How do I roll back?',
      'Who gives staging access?',
      'Who gives staging access?',
    ]);
  });

  it('finishes and stores the answer when the reader closes the tab mid-answer', async () => {
    suite.model.behave({
      reply: 'Roll back with the rollback job. Then tell #dev-help what happened.',
      chunkDelayMs: 40,
    });
    const threadId = await newThread(suite.withModel);
    const leaving = new AbortController();
    const response = await suite.withModel.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'How do I roll back a release?' },
      signal: leaving.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    leaving.abort();

    await waitFor(
      async () => (await stored(suite.withModel, threadId)).messages[1]?.status === 'complete',
      'the answer',
    );
    const answer = (await stored(suite.withModel, threadId)).messages[1];
    expect(answer?.status).toBe('complete');
    expect(storedText(answer)).toBe('Roll back with the rollback job. Then tell #dev-help what happened.');
    expect(suite.model.received[0]?.closedEarlyAt).toBeUndefined();
  });

  it('keeps an answer being written as running, with its text so far, for a reader who reloads mid-answer', async () => {
    const words = Array.from({ length: 40 }, (_, index) => `word${index} `);
    suite.model.behave({ reply: words, chunkDelayMs: 60 });
    const threadId = await newThread(suite.withModel);
    const reading = readChunks(
      await suite.withModel.call('POST', '/api/turns', {
        as: ada,
        body: { threadId, parentId: null, text: 'Talk to me' },
      }),
    );

    await waitFor(
      async () => (storedText((await stored(suite.withModel, threadId)).messages[1]) ?? '').includes('word'),
      'text so far',
    );
    const midway = (await stored(suite.withModel, threadId)).messages[1];
    expect(midway?.status).toBe('running');
    expect(storedText(midway)).not.toContain('word39');

    await reading;
    const done = (await stored(suite.withModel, threadId)).messages[1];
    expect(done?.status).toBe('complete');
    expect(storedText(done)).toBe(words.join(''));
  });

  it('stores what was written, as stopped, when the reader presses Stop', async () => {
    suite.model.behave({ reply: 'one two three four five six seven eight nine ten', chunkDelayMs: 60 });
    const threadId = await newThread(suite.withModel);
    const response = await suite.withModel.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'Count for me' },
    });
    let textArrived = () => {};
    const firstText = new Promise<void>((resolve) => {
      textArrived = resolve;
    });
    const reading = readChunks(response, (chunk) => chunk.type === 'text-delta' && textArrived());
    await firstText;

    expect((await suite.withModel.call('POST', `/api/threads/${threadId}/stop`, { as: eve })).status).toBe(404);
    expect((await suite.withModel.call('POST', `/api/threads/${threadId}/stop`, { as: ada })).status).toBe(204);

    const chunks = await reading;
    expect(chunks.at(-1)).toMatchObject({ type: 'abort' });
    const answer = (await stored(suite.withModel, threadId)).messages[1];
    expect(answer?.status).toBe('incomplete');
    expect(storedText(answer)).toBe(textOf(chunks));
    expect(textOf(chunks)).toMatch(/^one/);
    expect(textOf(chunks)).not.toContain('ten');
    expect((await suite.withModel.call('POST', `/api/threads/${threadId}/stop`, { as: ada })).status).toBe(404);
  });

  it('judges every link to the handbook before the text that closes it, and stores the answer without invented ones', async () => {
    suite.model.behave({ reply: ['See [the runbook](/deployment#rollback) ', 'or [this](/deploy#rollbacks) now.'] });
    const threadId = await newThread(suite.withModel);

    const chunks = await ask(suite.withModel, { threadId, parentId: null, text: 'How do I roll back a release?' });

    const kinds = chunks.map((chunk) =>
      chunk.type === 'data-link' ? `link:${JSON.stringify(chunk.data)}` : chunk.type,
    );
    const invented = kinds.indexOf('link:{"url":"/deploy#rollbacks","href":null}');
    expect(kinds.indexOf('link:{"url":"/deployment#rollback","href":"/deployment#rollback"}')).toBeGreaterThan(-1);
    expect(invented).toBeGreaterThan(-1);
    expect(kinds[invented + 1]).toBe('text-delta');
    const answer = (await stored(suite.withModel, threadId)).messages[1];
    expect(storedText(answer)).toBe('See [the runbook](/deployment#rollback) or this now.');
    expect(answer?.sources).toEqual([{ title: 'Deployment › Rollback', url: '/deployment#rollback' }]);
  });

  it('stores an answer the model fails mid-way as an error and says why in the stream', async () => {
    suite.model.behave({ reply: 'Roll back with the job', cutAfter: 2 });
    const threadId = await newThread(suite.withModel);

    const chunks = await ask(suite.withModel, { threadId, parentId: null, text: 'How do I roll back?' });

    expect(textOf(chunks)).toBe('Roll back ');
    expect(chunks.find((chunk) => chunk.type === 'data-failure')).toMatchObject({
      data: { code: 'model_unreachable:ask' },
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    expect((await stored(suite.withModel, threadId)).messages.map((message) => message.status)).toEqual([
      'complete',
      'error',
    ]);
  });

  it('refuses a second question in a chat while the first is being answered', async () => {
    suite.model.behave({ reply: 'slow answer here', chunkDelayMs: 100 });
    const threadId = await newThread(suite.withModel);
    const first = suite.withModel.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'One' },
    });
    await waitFor(async () => suite.model.received.length === 1, 'the first question');

    const second = await suite.withModel.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'Two' },
    });

    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'conflict:answer_running' } });
    await readChunks(await first);
  });

  it("hidesOtherReadersThreads: another reader's thread and message ids answer 404 to continue, edit, refresh and stop", async () => {
    const threadId = await newThread(suite.docsOnly);
    const first = turnIds(await ask(suite.docsOnly, { threadId, parentId: null, text: 'How do I roll back?' }));
    const before = await stored(suite.docsOnly, threadId);
    const evesThread = await newThread(suite.docsOnly, eve);

    const attempts: [string, Record<string, unknown>, string][] = [
      ['/api/turns', { threadId, parentId: first.answerId, text: 'mine now' }, 'not_found:thread'],
      ['/api/turns', { threadId, parentId: null, text: 'edit' }, 'not_found:thread'],
      ['/api/turns', { threadId, retryOf: first.questionId }, 'not_found:thread'],
      ['/api/turns', { threadId: evesThread, parentId: first.answerId, text: 'graft' }, 'not_found:message'],
      ['/api/turns', { threadId: evesThread, retryOf: first.questionId }, 'not_found:message'],
      ['/api/turns', { threadId: 'missing', parentId: null, text: 'hi' }, 'not_found:thread'],
      [`/api/threads/${threadId}/stop`, {}, 'not_found:answer'],
    ];
    for (const [path, body, code] of attempts) {
      const response = await suite.docsOnly.call('POST', path, { as: eve, body });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code } });
    }
    expect(await stored(suite.docsOnly, threadId)).toEqual(before);
    expect((await stored(suite.docsOnly, evesThread, eve)).messages).toEqual([]);
  });
});
