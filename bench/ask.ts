/**
 * Dev Copilot figures: retrieval recall@3 and MRR on the question set, and /api/askAi docs-only latency and
 * throughput through the real server. Prints figures only; it never fails on a number.
 */
import autocannon from 'autocannon';
import { startServer } from '../e2e/harness';
import { signIn } from '../e2e/sign-in';
import { loadDocsSearchIndex } from '../server/src/copilot/retrieval/docs-index.js';
import { docsQuestions } from '../server/src/copilot/retrieval/questions.js';
import { pageKey, parseDocUrl } from '../server/src/copilot/retrieval/urls.js';

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
for (const { question, expectedPage } of docsQuestions) {
  const pages = [
    ...new Set(index.search(question, { limit: 20 }).map((section) => pageKey(parseDocUrl(section.pageUrl).path))),
  ];
  const rank = pages.indexOf(pageKey(parseDocUrl(expectedPage).path));
  if (rank >= 0 && rank < 3) hits++;
  if (rank >= 0) reciprocalRanks += 1 / (rank + 1);
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
  `  askAi docs-only                     ${load.requests.average.toFixed(0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms (8 connections, ${durationSeconds} s, ${load.non2xx} non-2xx)`,
);
