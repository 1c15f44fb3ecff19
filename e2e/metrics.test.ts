import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store } from '../server/src/store/database.js';
import { questions, sessions } from '../server/src/store/schema.js';
import { copilotClient, readChunks } from './ask-fixtures';
import { freePort, startServer, type TestServer } from './harness';
import { grewBy, scrape } from './metrics-scrape';
import { sessionCookieFor } from './sign-in';

/** The compiled server with METRICS_PORT: Prometheus text there, counts that follow real requests. */

const day = 86_400_000;
const question = (text: string, attachments: unknown[] = []) => ({
  messages: [{ role: 'user', content: [{ type: 'text', text }], attachments }],
});
const screenshot = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test-support/fixtures/npm-e401-terminal@2x.png'),
).toString('base64');

let store: Store;
let server: TestServer;
let metricsPort: number;
let cookie: string;

beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  // Left by earlier runs: what the maintenance at start must remove.
  await store.db.insert(sessions).values({
    idHash: 'expired-long-ago',
    issuer: 'https://accounts.acme.dev',
    subject: 'gone',
    email: 'gone@acme.dev',
    emailVerified: true,
    expiresAt: new Date(Date.now() - day),
  });
  await store.db.insert(questions).values({
    id: 'asked-last-year',
    reader: 'oidc:https://accounts.acme.dev#gone',
    question: 'Where is the old wiki?',
    mode: 'docs-only',
    covered: false,
    answerMessageId: 'answer-last-year',
    createdAt: new Date(Date.now() - 365 * day),
  });
  metricsPort = await freePort();
  server = await startServer({ METRICS_PORT: String(metricsPort) }, { store });
  cookie = await sessionCookieFor(server.baseUrl, 'metrics-reader@acme.dev');
});

afterAll(async () => {
  await server?.close();
  await store?.close();
});

const get = (url: string, signedIn = true) =>
  fetch(`${server.baseUrl}${url}`, { headers: signedIn ? { cookie } : {}, redirect: 'manual' });

describe('the metrics listener', () => {
  it('answers Prometheus text with every metric of the README, the process defaults included', async () => {
    const { text } = await scrape(metricsPort);
    for (const [name, type] of [
      ['handbook_http_request_duration_seconds', 'histogram'],
      ['handbook_active_sessions', 'gauge'],
      ['handbook_copilot_questions_total', 'counter'],
      ['handbook_copilot_answer_duration_seconds', 'histogram'],
      ['handbook_copilot_model_errors_total', 'counter'],
      ['handbook_ocr_duration_seconds', 'histogram'],
      ['handbook_database_errors_total', 'counter'],
      ['handbook_site_build_age_seconds', 'gauge'],
      ['handbook_maintenance_runs_total', 'counter'],
      ['handbook_maintenance_removed_total', 'counter'],
      ['process_cpu_seconds_total', 'counter'],
      ['nodejs_heap_size_used_bytes', 'gauge'],
      ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
    }
  });

  it('serves nothing but /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('keepsMetricsOffThePublicPort: /metrics there is gated like any page, and never Prometheus text', async () => {
    const stranger = await get('/metrics', false);
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain('handbook_');
    const reader = await get('/metrics');
    expect(reader.status).toBe(404);
    expect(await reader.text()).not.toContain('# TYPE');
  });
});

describe('request metrics', () => {
  it('counts a page, an asset, a sign-in request and an API call by kind and status class', async () => {
    const before = await scrape(metricsPort);
    expect((await get('/faqs/')).status).toBe(200);
    expect((await get('/faqs/', false)).status).toBe(401);
    expect((await get('/img/logo.svg')).status).toBe(200);
    expect((await get('/api/search?q=runner')).status).toBe(200);
    expect((await get('/auth/login?next=/')).status).toBe(303);
    const after = await scrape(metricsPort);
    const count = (kind: string, status: string) =>
      grewBy(before, after, 'handbook_http_request_duration_seconds_count', { kind, status_class: status });
    expect(count('page', '2xx')).toBe(1);
    expect(count('page', '4xx')).toBe(1);
    expect(count('asset', '2xx')).toBe(1);
    expect(count('api', '2xx')).toBe(1);
    expect(count('sign-in', '3xx')).toBe(1);
    // Scrapes themselves are not requests of the public port.
    expect(count('other', '2xx')).toBe(0);
  });
});

describe('Dev Copilot metrics', () => {
  it('counts questions by coverage with their latency, a streamed turn included', async () => {
    const copilot = copilotClient(server.baseUrl, cookie);
    const before = await scrape(metricsPort);
    expect((await copilot.ask(question('How do I register a GitLab runner?'))).status).toBe(200);
    expect((await copilot.ask(question('What is the recipe for tiramisu with mascarpone?'))).status).toBe(200);
    const { response } = await copilot.askInNewThread('How do I create a TTL policy in Firestore?');
    await readChunks(response);
    const after = await scrape(metricsPort);
    const questionsBy = (outcome: string) =>
      grewBy(before, after, 'handbook_copilot_questions_total', { mode: 'docs-only', outcome });
    expect(questionsBy('covered')).toBe(2);
    expect(questionsBy('not_covered')).toBe(1);
    expect(grewBy(before, after, 'handbook_copilot_answer_duration_seconds_count', { mode: 'docs-only' })).toBe(3);
    expect(grewBy(before, after, 'handbook_copilot_answer_duration_seconds_sum')).toBeGreaterThan(0);
    // The streamed turn's request is counted too, although its reply is written outside Fastify.
    expect(grewBy(before, after, 'handbook_http_request_duration_seconds_count', { kind: 'api' })).toBe(4);
  });

  it('times the reading of a screenshot', async () => {
    const copilot = copilotClient(server.baseUrl, cookie);
    const before = await scrape(metricsPort);
    const attachment = { type: 'image', contentType: 'image/png', content: screenshot };
    expect((await copilot.ask(question('What is this?', [attachment]))).status).toBe(200);
    const after = await scrape(metricsPort);
    expect(grewBy(before, after, 'handbook_ocr_duration_seconds_count', { outcome: 'read' })).toBe(1);
    expect(grewBy(before, after, 'handbook_ocr_duration_seconds_sum', { outcome: 'read' })).toBeGreaterThan(0.01);
  });
});

describe('state read on scrape', () => {
  it('counts the live sessions only, and the age of the site build being served', async () => {
    const { sample } = await scrape(metricsPort);
    // The reader signed in above; the session left expired by an earlier run is not counted (nor kept).
    expect(sample('handbook_active_sessions')).toBe(1);
    const age = sample('handbook_site_build_age_seconds') ?? -1;
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(600);
  });

  it('ran the maintenance once at start: what had expired is gone, and said so in the counts', async () => {
    const ran = async () => (await scrape(metricsPort)).sample('handbook_maintenance_runs_total', { outcome: 'ran' });
    await expect.poll(ran).toBeGreaterThanOrEqual(1);
    const { sample } = await scrape(metricsPort);
    expect(sample('handbook_maintenance_removed_total', { what: 'expired_sessions' })).toBe(1);
    expect(sample('handbook_maintenance_removed_total', { what: 'old_questions' })).toBe(1);
    expect(await store.db.select().from(sessions)).not.toContainEqual(
      expect.objectContaining({ idHash: 'expired-long-ago' }),
    );
    expect((await store.db.select().from(questions)).map((row) => row.id)).not.toContain('asked-last-year');
    expect(sample('handbook_database_errors_total', { where: 'request' })).toBe(0);
  });
});
