import type { AskAiResponse } from '@acme/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  type FakeModelServer,
  startFakeModelServer,
} from '../server/test-support/fake-model-server.js';
import { copilotClient } from './ask-fixtures';
import { freePort, startServer } from './harness';
import { grewBy, scrape } from './metrics-scrape';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server against a provider that misbehaves without end: silent, flooding one line, or asking to wait.
 * Each question gets the docs answer within a bound, and the failure is counted under its cause.
 */

const timeoutSeconds = 6;
/** A third of the timeout: how long the provider may stay silent, before its first byte as between chunks. */
const stallMs = (timeoutSeconds * 1000) / 3;
const notice = 'The AI model could not be reached just now, so this answer comes from the docs search alone.';
const question = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I deploy?' }], attachments: [] }],
};

describe('askAi against a provider that misbehaves without end', () => {
  let fakeModel: FakeModelServer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let metricsPort: number;
  let copilot: ReturnType<typeof copilotClient>;
  beforeAll(async () => {
    fakeModel = await startFakeModelServer();
    metricsPort = await freePort();
    server = await startServer({
      METRICS_PORT: String(metricsPort),
      ASK_REQUESTS_PER_MINUTE: '1000',
      COPILOT_PROVIDER: 'openai-compatible',
      COPILOT_MODEL: 'test-model',
      COPILOT_BASE_URL: `${fakeModel.url}/v1`,
      COPILOT_TIMEOUT_SECONDS: String(timeoutSeconds),
      COPILOT_MAX_OUTPUT_TOKENS: '1000',
    });
    copilot = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, 'bounds@acme.dev'));
  });
  afterAll(async () => {
    await server?.close();
    await fakeModel?.close();
  });
  beforeEach(() => fakeModel.reset());

  /** Asks once as `behaviour` has the provider answer: the answer, how long it took, and the model errors counted. */
  async function askAgainst(behaviour: Behaviour | Behaviour[]) {
    fakeModel.behave(behaviour);
    const before = await scrape(metricsPort);
    const started = Date.now();
    const response = await copilot.ask(question);
    const elapsedMs = Date.now() - started;
    expect(response.status).toBe(200);
    const answer = (await response.json()) as AskAiResponse;
    const after = await scrape(metricsPort);
    const errors = (cause: string) => grewBy(before, after, 'handbook_copilot_model_errors_total', { cause });
    return { answer, elapsedMs, errors };
  }

  it.for<[string, Behaviour]>([
    ['no response at all', { hang: true }],
    ['headers, then nothing', { hangAfterHeaders: true }],
  ])('answers from the docs once the provider has been silent a third of the timeout: %s', async ([, behaviour]) => {
    const { answer, elapsedMs, errors } = await askAgainst(behaviour);

    expect(answer.mode).toBe('docs-only');
    expect(answer.data.startsWith(`${notice}\n\n`)).toBe(true);
    // 2 s, where the whole 6 s passed before.
    expect(elapsedMs).toBeGreaterThanOrEqual(stallMs - 50);
    expect(elapsedMs).toBeLessThan(stallMs + 1500);
    expect(errors('timeout')).toBe(1);
    await expect.poll(() => fakeModel.received[0]?.closedEarlyAt).toBeDefined();
  });

  it('cuts a response line that never ends at its byte cap, and answers from the docs', async () => {
    const { answer, elapsedMs, errors } = await askAgainst({ floodBytes: 512 * 1024 * 1024 });

    expect(answer.mode).toBe('docs-only');
    expect(elapsedMs).toBeLessThan(3000);
    expect(errors('bad_response')).toBe(1);
    await expect.poll(() => fakeModel.received[0]?.closedEarlyAt).toBeDefined();
    // 1000 tokens allow 1.5 MB; the rest is what the sockets between held when it was cut.
    expect(fakeModel.received[0]?.bytesSent).toBeLessThan(16 * 1024 * 1024);
  });

  it('answers from the docs at once, without a retry, when a 429 asks to wait 30 s', async () => {
    const { answer, elapsedMs, errors } = await askAgainst([{ status: 429, retryAfter: '30' }, { reply: 'Too late.' }]);

    expect(answer.mode).toBe('docs-only');
    expect(elapsedMs).toBeLessThan(1000);
    expect(errors('busy')).toBe(1);
    expect(fakeModel.received).toHaveLength(1);
  });

  it('waits out a 429 that asks for a second, and answers with the model', async () => {
    const { answer, elapsedMs, errors } = await askAgainst([
      { status: 429, retryAfter: '1' },
      { reply: 'Deploy with the pipeline.' },
    ]);

    expect(answer).toMatchObject({ mode: 'model', data: 'Deploy with the pipeline.' });
    expect(elapsedMs).toBeGreaterThanOrEqual(1000);
    expect(errors('busy')).toBe(0);
    expect(fakeModel.received).toHaveLength(2);
  });
});
