/**
 * Dev Copilot over HTTP: askAi docs-only latency and throughput, /api/search beside it, and in model mode the time
 * the stateless askAi call and a streamed turn add to the provider's. Retrieval quality is `bench/retrieval.ts`.
 * Prints figures only; it never fails on a number.
 */
import { parseJsonEventStream, uiMessageChunkSchema } from 'ai';
import autocannon from 'autocannon';
import { startServer } from '../e2e/harness';
import { sessionCookieFor } from '../e2e/sign-in';
import { startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { questionSet } from './questions/evaluate';

const started = performance.now();
const server = await startServer({
  LOG_LEVEL: 'silent',
  ASK_REQUESTS_PER_MINUTE: '1000000',
  ASK_CONCURRENT_PER_USER: '1000',
  SEARCH_REQUESTS_PER_MINUTE: '1000000',
});
const startSeconds = (performance.now() - started) / 1000;
const heldOut = questionSet('held-out');
const questions = [...heldOut.inScope, ...heldOut.outOfScope].map((entry) => entry.question);

const sessionCookie = await sessionCookieFor(server.baseUrl, 'bench@acme.dev');
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 8);
const requests = questions.slice(0, 40).map((question) => ({
  method: 'POST' as const,
  path: '/api/askAi',
  headers: {
    'content-type': 'application/json',
    origin: server.baseUrl,
    cookie: sessionCookie,
  },
  body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: question }], attachments: [] }] }),
}));
const load = await autocannon({ url: server.baseUrl, connections: 8, duration: durationSeconds, requests });
const searchRequests = questions.slice(0, 40).map((question) => ({
  method: 'GET' as const,
  path: `/api/search?q=${encodeURIComponent(question)}`,
  headers: { cookie: sessionCookie },
}));
const searchLoad = await autocannon({
  url: server.baseUrl,
  connections: 8,
  duration: durationSeconds,
  requests: searchRequests,
});
const firstSearch = await fetch(`${server.baseUrl}/api/search?q=${encodeURIComponent('firestore ttl policy')}`, {
  headers: { cookie: sessionCookie, 'accept-encoding': 'identity' },
});
const firstSearchBytes = (await firstSearch.arrayBuffer()).byteLength;
await server.close();

console.log('Dev Copilot and search over HTTP');
console.log(`  server start incl. the search index   ${startSeconds.toFixed(2)} s`);
console.log(
  `  askAi docs-only                       ${load.requests.average.toFixed(0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms (8 connections, ${durationSeconds} s, held-out questions, ${load.non2xx} non-2xx)`,
);
console.log(
  `  /api/search                           ${searchLoad.requests.average.toFixed(0)} req/s, p50 ${searchLoad.latency.p50} ms, p99 ${searchLoad.latency.p99} ms (${searchLoad.non2xx} non-2xx)`,
);
console.log(
  `  first search download                 ${(firstSearchBytes / 1024).toFixed(1)} KB for 8 hits, uncompressed (the lunr index every reader downloaded before: 2.8 MB)`,
);

/**
 * The model mode, against a local provider that waits 300 ms before its first token and 20 ms between tokens: the
 * provider asked directly, the stateless askAi call (the whole answer at once), and a turn of the widget (POST
 * /api/turns, streamed while the server stores it), each with the session check, validation, retrieval, prompt
 * building and the link check in between.
 */
const fake = await startFakeModelServer();
const firstTokenDelayMs = 300;
const tokenDelayMs = 20;
const reply = 'The answer is [in the runner guide](/setting-up-gitlab-runner): register the runner, then tag it.';
fake.behave({ reply, firstChunkDelayMs: firstTokenDelayMs, chunkDelayMs: tokenDelayMs });
const modelServer = await startServer({
  LOG_LEVEL: 'silent',
  ASK_REQUESTS_PER_MINUTE: '1000000',
  COPILOT_PROVIDER: 'openai-compatible',
  COPILOT_MODEL: 'bench-model',
  COPILOT_BASE_URL: `${fake.url}/v1`,
});
const modelCookie = await sessionCookieFor(modelServer.baseUrl, 'bench@acme.dev');
const asReader = { 'content-type': 'application/json', origin: modelServer.baseUrl, cookie: modelCookie };

type Timing = { firstText: number; end: number };

/** Milliseconds from sending the provider's request to the first chunk that carries answer text, and to its end. */
async function timeProvider(text: string): Promise<Timing> {
  const sent = performance.now();
  const response = await fetch(`${fake.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: text }] }),
  });
  const decoder = new TextDecoder();
  let seen = '';
  let firstText = Number.NaN;
  for await (const chunk of response.body ?? []) {
    seen += decoder.decode(chunk, { stream: true });
    if (Number.isNaN(firstText) && seen.includes('"content":"The')) firstText = performance.now() - sent;
  }
  return { firstText, end: performance.now() - sent };
}

/** Milliseconds from sending a stateless askAi call to its whole JSON answer. */
async function timeAskAi(text: string): Promise<number> {
  const sent = performance.now();
  const response = await fetch(`${modelServer.baseUrl}/api/askAi`, {
    method: 'POST',
    headers: asReader,
    body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }] }),
  });
  if (response.status !== 200) throw new Error(`askAi answered ${response.status}: ${await response.text()}`);
  await response.json();
  return performance.now() - sent;
}

/** Milliseconds from sending a turn (in a chat made before) to its first text delta, and to the end of its stream. */
async function timeTurn(text: string): Promise<Timing> {
  const thread = await fetch(`${modelServer.baseUrl}/api/threads`, { method: 'POST', headers: asReader, body: '{}' });
  const { id: threadId } = (await thread.json()) as { id: string };
  const sent = performance.now();
  const response = await fetch(`${modelServer.baseUrl}/api/turns`, {
    method: 'POST',
    headers: asReader,
    body: JSON.stringify({ threadId, parentId: null, text }),
  });
  if (!response.body || response.status !== 200) throw new Error(`the turn answered ${response.status}`);
  let firstText = Number.NaN;
  for await (const part of parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema })) {
    if (!part.success) throw part.error;
    if (part.value.type === 'error') throw new Error(`the turn failed: ${part.value.errorText}`);
    if (Number.isNaN(firstText) && part.value.type === 'text-delta') firstText = performance.now() - sent;
  }
  return { firstText, end: performance.now() - sent };
}

const median = (values: number[]) =>
  [...values].sort((first, second) => first - second)[Math.floor(values.length / 2)] ?? 0;
const rounds = 15;
const direct: Timing[] = [];
const throughAsk: number[] = [];
const throughTurn: Timing[] = [];
for (let round = 0; round < rounds; round++) {
  const text = heldOut.inScope[round % heldOut.inScope.length]?.question ?? 'How do I deploy?';
  direct.push(await timeProvider(text));
  throughAsk.push(await timeAskAi(text));
  throughTurn.push(await timeTurn(text));
}
await modelServer.close();
await fake.close();

const ms = (value: number) => `${value.toFixed(0)} ms`;
const providerFirst = median(direct.map((timing) => timing.firstText));
const providerEnd = median(direct.map((timing) => timing.end));
const askEnd = median(throughAsk);
const turnFirst = median(throughTurn.map((timing) => timing.firstText));
const turnEnd = median(throughTurn.map((timing) => timing.end));
console.log(
  `  model: provider directly              first token ${ms(providerFirst)}, whole answer ${ms(providerEnd)} (median of ${rounds}; the provider waits ${firstTokenDelayMs} ms, then ${tokenDelayMs} ms a token)`,
);
console.log(`  model: askAi, stateless JSON          whole answer ${ms(askEnd)}: adds ${ms(askEnd - providerEnd)}`);
console.log(
  `  model: turn, streamed and stored      first text ${ms(turnFirst)}, end of stream ${ms(turnEnd)}: adds ${ms(turnFirst - providerFirst)} to the first token, ${ms(turnEnd - providerEnd)} to the end`,
);
