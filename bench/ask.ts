/**
 * Dev Copilot over HTTP: askAi docs-only latency and throughput, /api/search beside it, and the time askAi adds to a
 * model's first token. Retrieval quality is `bench/retrieval.ts`. Prints figures only; it never fails on a number.
 */
import autocannon from 'autocannon';
import { startServer } from '../e2e/harness';
import { signIn } from '../e2e/sign-in';
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

const { jar } = await signIn(server.baseUrl, { email: 'bench@acme.dev' });
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 8);
const sessionCookie = `acme_session=${jar.get('acme_session')}`;
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
 * Time to first token: the same local provider (a fixed 300 ms before its first token) asked directly, and through
 * /api/askAi with sign-in, validation, retrieval, prompt building and the link check in between.
 */
const fake = await startFakeModelServer();
const firstTokenDelayMs = 300;
fake.behave({
  reply: 'The answer is [in the runner guide](/setting-up-gitlab-runner).',
  firstChunkDelayMs: firstTokenDelayMs,
});
const modelServer = await startServer({
  LOG_LEVEL: 'silent',
  ASK_REQUESTS_PER_MINUTE: '1000000',
  COPILOT_PROVIDER: 'openai-compatible',
  COPILOT_MODEL: 'bench-model',
  COPILOT_BASE_URL: `${fake.url}/v1`,
});
const modelCookie = `acme_session=${(await signIn(modelServer.baseUrl, { email: 'bench@acme.dev' })).jar.get('acme_session')}`;

/** Milliseconds from sending the request to the first chunk of body that carries answer text. */
async function timeToFirstText(url: string, init: RequestInit, marker: string) {
  const sent = performance.now();
  const response = await fetch(url, init);
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) throw new Error('the stream ended before any text');
    seen += decoder.decode(chunk.value);
    if (seen.includes(marker)) break;
  }
  const elapsed = performance.now() - sent;
  await reader?.cancel();
  return elapsed;
}

const median = (values: number[]) =>
  [...values].sort((first, second) => first - second)[Math.floor(values.length / 2)] ?? 0;
const direct: number[] = [];
const throughAsk: number[] = [];
for (let round = 0; round < 15; round++) {
  const text = heldOut.inScope[round % heldOut.inScope.length]?.question ?? 'How do I deploy?';
  direct.push(
    await timeToFirstText(
      `${fake.url}/v1/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: text }] }),
      },
      '"content":"The',
    ),
  );
  throughAsk.push(
    await timeToFirstText(
      `${modelServer.baseUrl}/api/askAi`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          origin: modelServer.baseUrl,
          cookie: modelCookie,
        },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }] }),
      },
      'event: delta',
    ),
  );
}
await modelServer.close();
await fake.close();
console.log(
  `  time to first token, model mode     ${median(throughAsk).toFixed(0)} ms through askAi vs ${median(direct).toFixed(0)} ms from the provider directly (median of 15, provider waits ${firstTokenDelayMs} ms): askAi adds ${(median(throughAsk) - median(direct)).toFixed(0)} ms`,
);
