import type { ApiErrorBody } from '@acme/contract';
import type { UIMessageChunk } from 'ai';
import { describe, expect } from 'vitest';
import { questions } from '../server/src/store/schema.js';
import type { FakeModelServer } from '../server/test-support/fake-model-server.js';
import { storedText } from '../server/test-support/messages.js';
import { dataOf, readChunks, sourceUrlsOf, test, textOf, verdictOf, withModel } from './ask-fixtures';

/**
 * POST /api/turns with a model configured: the widget's question, streamed as an AI SDK UI message stream while the
 * server stores it, against a local server that speaks each provider's real wire protocol.
 */

test.override(withModel);

const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index} `);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const deltasOf = (chunks: readonly UIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
const sentTo = (fakeModel: FakeModelServer, index = 0) =>
  (fakeModel.received.at(index)?.body.messages ?? []) as Array<{ role: string; content: unknown }>;

/** A PNG of 1x1 pixel, enough to check that images reach a vision model. */
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('a turn with an OpenAI-compatible model', () => {
  test('streams the model answer through, grounded in numbered sections, and judges every link before the text that closes it', async ({
    copilot,
    fakeModel,
    server,
  }) => {
    const reply = [
      'Register the runner as ',
      '[the runner guide](/setting-up-gitlab-runner',
      ') says, then check [the made-up page](/runner-setup#nope)',
      ' and [GitLab](https://docs.gitlab.com/runner/) [1].',
    ];
    fakeModel.behave({ reply, chunkDelayMs: 5 });
    const { threadId, response } = await copilot.askInNewThread('How do I register a GitLab runner?', {
      page: '/setting-up-gitlab-runner',
    });
    expect(response.status).toBe(200);
    const chunks = await readChunks(response);
    expect(await verdictOf(server.store, chunks)).toMatchObject({ mode: 'model', covered: true });
    expect(deltasOf(chunks)).toEqual(reply);
    // Links elsewhere get no verdict; each link into the handbook does, before the piece that closes it.
    expect(dataOf(chunks, 'link')).toEqual([
      { url: '/setting-up-gitlab-runner', href: '/setting-up-gitlab-runner' },
      { url: '/runner-setup#nope', href: null },
    ]);
    const invented = chunks.findIndex((chunk) => chunk.type === 'data-link' && chunk.id === '/runner-setup#nope');
    expect(textOf(chunks.slice(0, invented))).not.toContain('(/runner-setup#nope)');
    expect(chunks[invented + 1]?.type).toBe('text-delta');
    const sources = sourceUrlsOf(chunks);
    expect(sources[0]).toBe('/setting-up-gitlab-runner');
    expect(sources.every((url) => !url.startsWith('/runner-setup'))).toBe(true);

    const answer = (await copilot.thread(threadId)).messages[1];
    expect(answer?.status).toBe('complete');
    expect(storedText(answer)).toBe(
      'Register the runner as [the runner guide](/setting-up-gitlab-runner) says, then check the made-up page and [GitLab](https://docs.gitlab.com/runner/) [1].',
    );
    expect(answer?.sources.map((source) => source.url)).toEqual(sources);

    const sent = fakeModel.received[0];
    expect(sent?.protocol).toBe('openai');
    expect(sent?.body).toMatchObject({ model: 'test-model', stream: true });
    const messages = sentTo(fakeModel);
    expect(messages[0]?.role).toBe('system');
    const system = String(messages[0]?.content);
    expect(system).toContain("You are Dev Copilot, the development copilot of Acme's app team");
    expect(system).toContain('[1] ');
    expect(system).toMatch(/URL: \/setting-up-gitlab-runner/);
    expect(system).toContain('The reader is on the page /setting-up-gitlab-runner.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'How do I register a GitLab runner?' });
  });

  test('finishes and stores the answer when its reader goes away, without cancelling the model', async ({
    copilot,
    fakeModel,
  }) => {
    fakeModel.behave({ reply: words(20), chunkDelayMs: 60 });
    const leaving = new AbortController();
    const { threadId, response } = await copilot.askInNewThread(
      'Explain the deployment flow',
      {},
      { signal: leaving.signal },
    );
    await response.body?.getReader().read();
    await expect.poll(() => fakeModel.received.length).toBe(1);
    leaving.abort();
    await expect.poll(() => fakeModel.received[0]?.finishedAt, { timeout: 5000 }).toBeDefined();
    expect(fakeModel.received[0]?.closedEarlyAt).toBeUndefined();
    await expect
      .poll(async () => (await copilot.thread(threadId)).messages[1]?.status, { timeout: 5000 })
      .toBe('complete');
    expect(storedText((await copilot.thread(threadId)).messages[1])).toBe(words(20).join(''));
  });

  test('cancels the upstream request within a second on Stop, and stores what was written as incomplete', async ({
    copilot,
    fakeModel,
  }) => {
    fakeModel.behave({ reply: words(40), chunkDelayMs: 50 });
    const { threadId, response } = await copilot.askInNewThread('Count for me');
    const reading = readChunks(response);
    await expect.poll(() => fakeModel.received.length).toBe(1);
    await sleep(300);
    const stoppedAt = Date.now();
    expect((await copilot.stop(threadId)).status).toBe(204);
    const chunks = await reading;
    expect(chunks.at(-1)).toMatchObject({ type: 'abort' });
    await expect.poll(() => fakeModel.received[0]?.closedEarlyAt, { timeout: 3000 }).toBeDefined();
    expect((fakeModel.received[0]?.closedEarlyAt ?? Number.POSITIVE_INFINITY) - stoppedAt).toBeLessThan(1000);
    expect(fakeModel.received[0]?.finishedAt).toBeUndefined();
    expect(textOf(chunks)).toMatch(/^word0 word1 /);
    expect(textOf(chunks)).not.toContain('word39');
    const answer = (await copilot.thread(threadId)).messages[1];
    expect(answer?.status).toBe('incomplete');
    expect(storedText(answer)).toBe(textOf(chunks));
    expect((await copilot.stop(threadId)).status).toBe(404);
  });
});

describe('turns on a slow model', () => {
  test('keep their slots after the reader left, until stored; askAi and turns share them; a busy chat says 409', async ({
    copilot,
    fakeModel,
    server,
  }) => {
    fakeModel.behave({ reply: words(30), chunkDelayMs: 50 });
    const text = 'What is the recipe for tiramisu with mascarpone?';
    const left: string[] = [];
    for (let round = 0; round < 2; round++) {
      const leaving = new AbortController();
      const { threadId, response } = await copilot.askInNewThread(text, {}, { signal: leaving.signal });
      await response.body?.getReader().read();
      leaving.abort();
      left.push(threadId);
    }
    const [busy = ''] = left;
    const again = await copilot.turn({ threadId: busy, parentId: null, text: 'Or with cream?' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ApiErrorBody).error.code).toBe('conflict:answer_running');
    // Two slots per reader, both taken by answers nobody reads any more: they are still being written.
    const third = await copilot.askInNewThread('How do I deploy?');
    expect(third.response.status).toBe(429);
    expect(((await third.response.json()) as ApiErrorBody).error.code).toBe('rate_limited:concurrent');
    const asked = await copilot.ask({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I deploy?' }], attachments: [] }],
    });
    expect(asked.status).toBe(429);
    expect(((await asked.json()) as ApiErrorBody).error.code).toBe('rate_limited:concurrent');

    const statusesOf = async (threadId: string) =>
      (await copilot.thread(threadId)).messages.map((message) => message.status);
    for (const threadId of left) {
      await expect.poll(() => statusesOf(threadId), { timeout: 5000 }).toEqual(['complete', 'complete']);
    }
    fakeModel.behave({ reply: 'Deploy with the pipeline.' });
    await expect
      .poll(async () => (await copilot.askInNewThread('How do I deploy?')).response.status, { timeout: 1000 })
      .toBe(200);
    const answerIds = await Promise.all(left.map(async (threadId) => (await copilot.thread(threadId)).messages[1]?.id));
    const logged = await server.store.db.select().from(questions);
    expect(logged.filter((row) => answerIds.includes(row.answerMessageId)).map((row) => row.question)).toEqual([
      text,
      text,
    ]);
  });
});

describe('a turn when the model fails', () => {
  test.for<[string, object]>([
    ['an HTTP 500', { status: 500 }],
    ['a rejected key', { status: 401 }],
    ['a connection closed before the first word', { cutAfter: 0 }],
    ['no answer before the timeout', { hang: true }],
  ])(
    'before its first word (%s): answers from the docs, says so in one line, and stores the answer as docs-only',
    async ([, behaviour], { copilot, fakeModel, server }) => {
      fakeModel.behave(behaviour);
      const text = 'How do I register a GitLab runner?';
      const { threadId, response } = await copilot.askInNewThread(text);
      const chunks = await readChunks(response);
      expect(dataOf(chunks, 'failure')).toEqual([]);
      expect(await verdictOf(server.store, chunks)).toMatchObject({ mode: 'docs-only', covered: true });
      expect(textOf(chunks)).toMatch(
        /^The AI model could not be reached just now, so this answer comes from the docs search alone\.\n\n\*\*\[/,
      );
      const sources = sourceUrlsOf(chunks);
      expect(sources[0]).toMatch(/^\/setting-up-gitlab-runner/);
      expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
      const answer = (await copilot.thread(threadId)).messages[1];
      expect(answer).toMatchObject({ status: 'complete', content: [{ text: textOf(chunks) }] });
      expect(answer?.sources.map((source) => source.url)).toEqual(sources);
      const logged = await server.store.db.select().from(questions);
      expect(logged.find((row) => row.answerMessageId === answer?.id)).toMatchObject({
        mode: 'docs-only',
        covered: true,
      });
    },
  );

  test('after its first words: reports the failure in the stream with a clear code, and stores the answer as failed', async ({
    copilot,
    fakeModel,
  }) => {
    fakeModel.behave({ reply: words(10), cutAfter: 4 });
    const { threadId, response } = await copilot.askInNewThread('How do I deploy?');
    expect(response.status).toBe(200);
    const chunks = await readChunks(response);
    expect(chunks[0]?.type).toBe('start');
    expect(textOf(chunks)).toBe(words(4).join(''));
    expect(dataOf(chunks, 'failure')).toEqual([
      { code: 'model_unreachable:ask', message: expect.stringMatching(/\w/) },
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    const messages = (await copilot.thread(threadId)).messages;
    expect(messages.map((message) => message.status)).toEqual(['complete', 'error']);
    expect(storedText(messages[1])).toBe(words(4).join(''));
    // The server is unharmed: the next question is answered.
    fakeModel.behave({ reply: 'Back again.' });
    expect(textOf(await readChunks((await copilot.askInNewThread('How do I deploy?')).response))).toBe('Back again.');
  });
});

describe('turns through each provider wire format of the AI SDK', () => {
  test.for([
    ['openai', '/v1', 'openai', 'authorization', 'Bearer test-key'],
    ['anthropic', '/v1', 'anthropic', 'x-api-key', 'test-key'],
    ['google', '/v1beta', 'google', 'x-goog-api-key', 'test-key'],
  ] as const)('%s', async ([provider, basePath, protocol, keyHeader, keyValue], { copilotWith, fakeModel }) => {
    const copilot = await copilotWith({
      COPILOT_PROVIDER: provider,
      COPILOT_MODEL: 'test-model',
      COPILOT_API_KEY: 'test-key',
      COPILOT_BASE_URL: `${fakeModel.url}${basePath}`,
    });
    const reply = `Answer from ${provider}: see [the TTL guide](/firestore-ttl) and [nothing](/nope).`;
    fakeModel.behave({ reply });
    const attachments = [{ type: 'image', contentType: 'image/png', content: tinyPng }];
    const { threadId, response } = await copilot.askInNewThread('What does this TTL screenshot mean?', {
      attachments,
    });
    const chunks = await readChunks(response);
    expect(textOf(chunks)).toBe(reply);
    expect(dataOf(chunks, 'link')).toContainEqual({ url: '/nope', href: null });
    expect(sourceUrlsOf(chunks)).toEqual(['/firestore-ttl']);
    expect(storedText((await copilot.thread(threadId)).messages[1])).toBe(
      `Answer from ${provider}: see [the TTL guide](/firestore-ttl) and nothing.`,
    );
    const sent = fakeModel.received.at(-1);
    expect(sent?.protocol).toBe(protocol);
    expect(sent?.headers[keyHeader]).toBe(keyValue);
    // Vision models get the screenshot itself.
    expect(JSON.stringify(sent?.body)).toContain(tinyPng);
  });
});
