/**
 * Dev Copilot figures: retrieval recall@3 and MRR on the question set beside the site's own lunr search on the same
 * questions, /api/askAi docs-only latency and throughput, and the time askAi adds to a model's first token. Prints
 * figures only; it never fails on a number.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import lunr from 'lunr';
import { startServer } from '../e2e/harness';
import { signIn } from '../e2e/sign-in';
import { loadDocsSearchIndex } from '../server/src/copilot/retrieval/docs-index.js';
import { answeringPages, type DocsQuestion, docsQuestions } from '../server/src/copilot/retrieval/questions.js';
import { pageKey, parseDocUrl } from '../server/src/copilot/retrieval/urls.js';
import { startFakeModelServer } from '../server/src/testing/fake-model-server.js';

const started = performance.now();
const server = await startServer({
  LOG_LEVEL: 'silent',
  ASK_REQUESTS_PER_MINUTE: '1000000',
  ASK_CONCURRENT_PER_USER: '1000',
});
const index = loadDocsSearchIndex(server.config.siteDirectory);
const indexSeconds = (performance.now() - started) / 1000;

let hits = 0;
let reciprocalRanks = 0;
/** 0-based rank of the first page in `ranked` that answers the question, or -1. */
const rankAmong = (ranked: readonly string[], question: DocsQuestion) => {
  const answering = answeringPages(question).map((page) => pageKey(parseDocUrl(page).path));
  return ranked.findIndex((page) => answering.includes(page));
};

for (const docsQuestion of docsQuestions) {
  const pages = [
    ...new Set(
      index.search(docsQuestion.question, { limit: 20 }).map((section) => pageKey(parseDocUrl(section.pageUrl).path)),
    ),
  ];
  const rank = rankAmong(pages, docsQuestion);
  if (rank >= 0 && rank < 3) hits++;
  if (rank >= 0) reciprocalRanks += 1 / (rank + 1);
}

/**
 * The baseline: the site's own search index (lunr, built by docusaurus-search-local) asked the same questions. Each of
 * its parts (titles, headings, descriptions, contents) is searched with the question's words, and a page ranks by its
 * best score in any part, which is roughly what its search box lists first.
 */
type SearchPart = { documents: Array<{ i: number; u: string }>; index: object };
const parts = (
  JSON.parse(readFileSync(path.join(server.config.siteDirectory, 'search-index.json'), 'utf8')) as SearchPart[]
).map((part) => ({
  index: lunr.Index.load(part.index),
  pageOf: new Map(part.documents.map((document) => [String(document.i), document.u])),
}));
let lunrHits = 0;
let lunrReciprocalRanks = 0;
for (const docsQuestion of docsQuestions) {
  const words = docsQuestion.question.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const best = new Map<string, number>();
  for (const part of parts) {
    const results = part.index.query((query) => {
      for (const word of words) query.term(word, { presence: lunr.Query.presence.OPTIONAL });
    });
    for (const result of results) {
      const page = part.pageOf.get(result.ref);
      if (page) best.set(pageKey(page), Math.max(best.get(pageKey(page)) ?? 0, result.score));
    }
  }
  const ranked = [...best.entries()].sort((first, second) => second[1] - first[1]).map(([page]) => page);
  const rank = rankAmong(ranked, docsQuestion);
  if (rank >= 0 && rank < 3) lunrHits++;
  if (rank >= 0) lunrReciprocalRanks += 1 / (rank + 1);
}

const { jar } = await signIn(server.baseUrl, { email: 'bench@acme.dev' });
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 8);
const requests = docsQuestions.slice(0, 20).map(({ question }) => ({
  method: 'POST' as const,
  path: '/api/askAi',
  headers: {
    'content-type': 'application/json',
    origin: server.baseUrl,
    cookie: `acme_session=${jar.get('acme_session')}`,
  },
  body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: question }], attachments: [] }] }),
}));
const load = await autocannon({ url: server.baseUrl, connections: 8, duration: durationSeconds, requests });
await server.close();

console.log('Dev Copilot figures');
console.log(`  server start incl. docs index       ${indexSeconds.toFixed(2)} s`);
console.log(
  `  retrieval recall@3 (pages)          ${(hits / docsQuestions.length).toFixed(3)} on ${docsQuestions.length} questions`,
);
console.log(`  retrieval MRR (pages)               ${(reciprocalRanks / docsQuestions.length).toFixed(3)}`);
console.log(
  `  site search (lunr), same questions  recall@3 ${(lunrHits / docsQuestions.length).toFixed(3)}, MRR ${(lunrReciprocalRanks / docsQuestions.length).toFixed(3)}`,
);
console.log(
  `  askAi docs-only                     ${load.requests.average.toFixed(0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms (8 connections, ${durationSeconds} s, ${load.non2xx} non-2xx)`,
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
  const text = docsQuestions[round % docsQuestions.length]?.question ?? 'How do I deploy?';
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
