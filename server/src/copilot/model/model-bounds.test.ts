import type { ApiErrorCode } from '@acme/contract';
import { describe, expect, it } from 'vitest';
import { textOf, verdictOf, waitFor } from '../../../test-support/copilot-api.js';
import { copilotSuite } from '../../../test-support/copilot-suite.js';
import type { Behaviour } from '../../../test-support/fake-model-server.js';
import type { ModelSettings } from '../../config.js';
import { modelUnavailableNotice } from '../answer/model-fallback.js';
import { answerWithModel } from './model-answer.js';
import { classifyModelError } from './model-errors.js';
import { createChatModel } from './provider.js';
import { longestRetryWaitMs, responseByteCap, stallTimeoutMs } from './provider-bounds.js';

const ada = 'ada@acme.example';
const question = 'How do I roll back a release?';
/** As the suite's model is configured (copilot-api.ts): 10 s for an answer, so 3.3 s of silence; 500 tokens. */
const suiteTimeoutMs = 10_000;
const maxOutputTokens = 500;

/** Where each provider's API lives under the model stand-in. */
const apiRoots = { openai: '/v1', 'openai-compatible': '/v1', anthropic: '/v1', google: '/v1beta' } as const;
const providers = Object.keys(apiRoots) as Array<keyof typeof apiRoots>;

type Outcome = { text: string; code?: ApiErrorCode; elapsedMs: number };

/**
 * What a provider that misbehaves costs, whatever it does: a line that never ends, silence, or a long Retry-After.
 * Each ends in the docs answer (before the model's first word) within a bound, with the request to it closed.
 */
describe('bounds on a model provider', () => {
  const suite = copilotSuite();

  /** A model run straight through answerWithModel, for the code its failure is classified as. */
  async function runModel(provider: keyof typeof apiRoots, timeoutMs = 3000, spentMs = 0): Promise<Outcome> {
    const settings: ModelSettings = {
      provider,
      model: 'test-model',
      apiKey: 'test-key',
      baseUrl: `${suite.model.url}${apiRoots[provider]}`,
      timeoutMs,
      vision: false,
      embeddingModel: undefined,
      maxOutputTokens,
    };
    const model = await createChatModel(settings);
    const started = Date.now();
    let text = '';
    try {
      const answer = answerWithModel({
        model,
        timeoutMs,
        spentMs,
        vision: false,
        maxOutputTokens,
        conversation: { messages: [{ role: 'user', text: question, attachments: [] }] },
        retrieved: [],
        sectionAt: () => undefined,
        search: async () => [],
        signal: new AbortController().signal,
      });
      for await (const piece of answer.pieces) text += typeof piece === 'string' ? piece : '';
      return { text, elapsedMs: Date.now() - started };
    } catch (error) {
      return { text, code: classifyModelError(error), elapsedMs: Date.now() - started };
    }
  }

  /** A first question over the widget's turn, timed. */
  async function timedTurn() {
    const threadId = await suite.withModel.newThread(ada);
    const started = Date.now();
    const chunks = await suite.withModel.turn({ threadId, parentId: null, text: question }, ada);
    return { chunks, elapsedMs: Date.now() - started };
  }

  const requestClosed = () =>
    waitFor(async () => suite.model.received[0]?.closedEarlyAt !== undefined, 'the request to the model to be closed');

  async function expectDocsAnswer(chunks: Awaited<ReturnType<typeof timedTurn>>['chunks']) {
    expect(chunks.find((chunk) => chunk.type === 'data-failure')).toBeUndefined();
    expect(textOf(chunks).startsWith(`${modelUnavailableNotice}\n\n`)).toBe(true);
    expect(await verdictOf(suite.store, chunks)).toMatchObject({ mode: 'docs-only', covered: true });
  }

  describe('a response line without end', () => {
    const flood: Behaviour = { floodBytes: 256 * 1024 * 1024 };

    it('cutsItAtTheByteCap: the reader gets the docs answer and the connection is closed, not 256 MB read', async () => {
      suite.model.behave(flood);

      const { chunks, elapsedMs } = await timedTurn();

      await expectDocsAnswer(chunks);
      expect(elapsedMs).toBeLessThan(3000);
      await requestClosed();
      const request = suite.model.received[0];
      // The cap (1.25 MB at 500 tokens), and what the sockets between the two held when it was reached.
      expect(request?.bytesSent).toBeGreaterThan(responseByteCap(maxOutputTokens));
      expect(request?.bytesSent).toBeLessThan(responseByteCap(maxOutputTokens) + 16 * 1024 * 1024);
    });

    it.for(providers)('failsAsABadResponse: %s', async (provider) => {
      suite.model.behave(flood);

      const outcome = await runModel(provider);

      expect(outcome).toMatchObject({ code: 'model_bad_response:ask', text: '' });
      expect(suite.model.received).toHaveLength(1);
    });

    it('leavesAFullLengthAnswerWhole: the cap is far above what the token limit lets through', async () => {
      suite.model.behave({ reply: Array.from({ length: maxOutputTokens }, (_, index) => `w${index} `) });

      // 500 events take a while on a busy machine: the whole answer's timeout is not what is tested here.
      const outcome = await runModel('openai', suiteTimeoutMs);

      expect(outcome.code).toBeUndefined();
      expect(outcome.text).toMatch(/^w0 w1 .* w499 $/);
    });
  });

  describe('a provider that sends nothing', () => {
    it.for<[string, Behaviour]>([
      ['no response at all', { hang: true }],
      ['its headers, then nothing', { hangAfterHeaders: true }],
    ])('answersFromTheDocsAfterTheStallTimeout, not the whole timeout: %s', async ([, behaviour]) => {
      suite.model.behave(behaviour);

      const { chunks, elapsedMs } = await timedTurn();

      await expectDocsAnswer(chunks);
      // 3.3 s of silence, where the whole 10 s passed before.
      expect(elapsedMs).toBeGreaterThanOrEqual(stallTimeoutMs(suiteTimeoutMs) - 50);
      expect(elapsedMs).toBeLessThan(stallTimeoutMs(suiteTimeoutMs) + 2000);
      expect(suite.model.received).toHaveLength(1);
      await requestClosed();
    });

    it.for(providers)('failsAsATimeout: %s', async (provider) => {
      suite.model.behave({ hangAfterHeaders: true });

      const outcome = await runModel(provider, 3000);

      expect(outcome).toMatchObject({ code: 'model_timeout:ask', text: '' });
      expect(outcome.elapsedMs).toBeLessThan(stallTimeoutMs(3000) + 1000);
    });

    it('keepsASlowButSteadyAnswer: the bound is on the first byte, not the whole answer', async () => {
      // 2 s of silence allowed; the answer takes about 3 s, in pieces 0.8 s apart.
      suite.model.behave({ reply: 'one two three four', firstChunkDelayMs: 500, chunkDelayMs: 800 });

      const outcome = await runModel('openai', 6000);

      expect(outcome).toEqual({ text: 'one two three four', elapsedMs: expect.any(Number) });
    });

    it('countsTheScreenshotsReadingInTheDeadline: OCR time counts in COPILOT_TIMEOUT_SECONDS, the model keeping half', async () => {
      // A steady answer of about 5 s, after its screenshots took 5 s of the 6: the model still gets 3 s, then is cut.
      suite.model.behave({ reply: 'one two three four', firstChunkDelayMs: 500, chunkDelayMs: 1500 });

      const outcome = await runModel('openai', 6000, 5000);

      expect(outcome).toMatchObject({ code: 'model_timeout:ask' });
      expect(outcome.elapsedMs).toBeGreaterThan(2500);
      expect(outcome.elapsedMs).toBeLessThan(3000 + 800);
    });
  });

  describe('a provider asking to wait', () => {
    const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();

    it.for<[string, () => string]>([
      ['Retry-After: 7', () => '7'],
      ['Retry-After as a date 30 s away', () => inSeconds(30)],
    ])('answersFromTheDocsAtOnceWhenTheWaitIsLong: %s', async ([, retryAfter]) => {
      suite.model.behave([{ status: 429, retryAfter: retryAfter() }, { reply: 'The answer, too late.' }]);

      const { chunks, elapsedMs } = await timedTurn();

      await expectDocsAnswer(chunks);
      expect(elapsedMs).toBeLessThan(1000);
      expect(suite.model.received).toHaveLength(1);
    });

    it.for(providers)('failsAsBusy: %s', async (provider) => {
      suite.model.behave([{ status: 429, retryAfter: '7' }, { reply: 'The answer, too late.' }]);

      const outcome = await runModel(provider);

      expect(outcome).toMatchObject({ code: 'model_busy:ask', text: '' });
      expect(outcome.elapsedMs).toBeLessThan(1000);
    });

    it('givesAnOverloadedProviderNoLongWaitEither: a 503 asking for 30 s is a model error at once', async () => {
      suite.model.behave([{ status: 503, retryAfter: '30' }, { reply: 'The answer, too late.' }]);

      const outcome = await runModel('anthropic');

      expect(outcome).toMatchObject({ code: 'model_error:ask', text: '' });
      expect(outcome.elapsedMs).toBeLessThan(1000);
      expect(suite.model.received).toHaveLength(1);
    });

    it.each(providers)(
      'followsNoRedirect (%s): a redirect loop is a failed provider at once, not dozens of requests',
      async (provider) => {
        suite.model.behave({ redirectLoop: true });

        const outcome = await runModel(provider);

        expect(outcome.text).toBe('');
        expect(outcome.code).toBeDefined();
        expect(outcome.elapsedMs).toBeLessThan(longestRetryWaitMs + 1000);
        // The SDK may try once more; never a third time.
        expect(suite.model.received.length).toBeLessThanOrEqual(2);
      },
    );

    it('retriesOnceAfterAShortWait: a 429 asking for 1 s is waited out and the model answers', async () => {
      suite.model.behave([{ status: 429, retryAfter: '1' }, { reply: 'Roll back with the rollback job.' }]);

      const { chunks, elapsedMs } = await timedTurn();

      expect(textOf(chunks)).toBe('Roll back with the rollback job.');
      expect(await verdictOf(suite.store, chunks)).toMatchObject({ mode: 'model' });
      expect(suite.model.received).toHaveLength(2);
      expect(elapsedMs).toBeGreaterThanOrEqual(1000);
      expect(elapsedMs).toBeLessThan(longestRetryWaitMs + 1000);
    });
  });
});
