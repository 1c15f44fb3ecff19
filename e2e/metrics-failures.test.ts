import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { inMemoryDataDirectory, openStore } from '../server/src/store/database.js';
import { type FakeModelServer, startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { copilotClient } from './ask-fixtures';
import { freePort, startServer } from './harness';
import { grewBy, scrape } from './metrics-scrape';
import { sessionCookieFor } from './sign-in';

/** The metrics of what goes wrong: a model failing for different causes, a database gone. */

const question = (text: string) => ({
  messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }],
});

describe('model errors', () => {
  let fakeModel: FakeModelServer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let metricsPort: number;
  let copilot: ReturnType<typeof copilotClient>;
  beforeAll(async () => {
    fakeModel = await startFakeModelServer();
    metricsPort = await freePort();
    server = await startServer({
      METRICS_PORT: String(metricsPort),
      COPILOT_PROVIDER: 'openai-compatible',
      COPILOT_MODEL: 'test-model',
      COPILOT_BASE_URL: `${fakeModel.url}/v1`,
      COPILOT_TIMEOUT_SECONDS: '1',
    });
    copilot = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, 'metrics-model@acme.dev'));
  });
  afterAll(async () => {
    await server?.close();
    await fakeModel?.close();
  });

  it('counts model errors by cause, answers the docs gave in their stead as docs-only, and failed answers', async () => {
    const before = await scrape(metricsPort);
    const ask = async () => (await copilot.ask(question('How do I register a GitLab runner?'))).status;
    // Before the first word, the docs answer instead; after it, the answer fails.
    fakeModel.behave({ status: 401 });
    expect(await ask()).toBe(200);
    fakeModel.behave({ hang: true });
    expect(await ask()).toBe(200);
    fakeModel.behave({ reply: 'Register it with the runner token and then', cutAfter: 3 });
    expect(await ask()).toBe(502);
    fakeModel.behave({ reply: 'Register it with the runner token, see [the guide](/setting-up-gitlab-runner).' });
    expect(await ask()).toBe(200);
    const after = await scrape(metricsPort);

    const modelErrorsBy = (cause: string) => grewBy(before, after, 'handbook_copilot_model_errors_total', { cause });
    expect([modelErrorsBy('refused_key'), modelErrorsBy('timeout'), modelErrorsBy('unreachable')]).toEqual([1, 1, 1]);
    const questionsBy = (mode: string, outcome: string) =>
      grewBy(before, after, 'handbook_copilot_questions_total', { mode, outcome });
    expect(questionsBy('docs-only', 'covered')).toBe(2);
    expect(questionsBy('model', 'failed')).toBe(1);
    expect(questionsBy('model', 'covered')).toBe(1);
    expect(grewBy(before, after, 'handbook_copilot_answer_duration_seconds_count', { mode: 'model' })).toBe(1);
    expect(grewBy(before, after, 'handbook_copilot_answer_duration_seconds_count', { mode: 'docs-only' })).toBe(2);
  });
});

describe('database errors', () => {
  it('counts queries that fail under a request and under a scrape, and the scrape still answers', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    const metricsPort = await freePort();
    const server = await startServer({ METRICS_PORT: String(metricsPort) }, { store });
    try {
      await store.close();
      // An unknown session with our tag is looked up in the database, which is gone.
      const unknownSession = sessionCookieCodec(server.config.sessionSecret).valueOf(newSessionId());
      const response = await fetch(`${server.baseUrl}/faqs/`, {
        headers: { cookie: `acme_session=${unknownSession}` },
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
      const first = await scrape(metricsPort);
      expect(first.sample('handbook_database_errors_total', { where: 'request' })).toBe(1);
      // The active sessions could not be counted: zero, the rest of the scrape intact, and the failure counted (the
      // counters are read alongside the gauges, so it shows from the next scrape).
      expect(first.sample('handbook_active_sessions')).toBe(0);
      expect(first.sample('handbook_site_build_age_seconds')).toBeGreaterThan(0);
      expect((await scrape(metricsPort)).sample('handbook_database_errors_total', { where: 'metrics' })).toBe(1);
    } finally {
      await server.close();
    }
  });
});
