/**
 * The maintainers' insights on a year of data for 500 readers, generated here: about 250,000 questions, 12,500
 * rated conversations and 625,000 searches. Prints how long GET /api/insights takes for each period, on the embedded
 * PGlite and on PostgreSQL, through the real server. Figures only; it never fails on a number.
 */
import { startServer } from '../e2e/harness';
import { sessionCookieFor } from '../e2e/sign-in';
import { inMemoryDataDirectory, openStore, type Store } from '../server/src/store/database';
import { seedInsightsYear } from '../server/test-support/insights-year';
import { createPostgresTestDatabase } from '../server/test-support/test-databases';

const year = { readers: 500, questions: 250_000, ratedConversations: 12_500, searches: 625_000 };
const runsPerPeriod = 5;
const maintainer = 'bench.maintainer@acme.dev';

async function measure(name: string, store: Store) {
  const seedStarted = performance.now();
  await seedInsightsYear(store.db, year);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const server = await startServer({ LOG_LEVEL: 'silent', MAINTAINERS: maintainer }, { store });
  try {
    const cookie = await sessionCookieFor(server.baseUrl, maintainer);
    console.log(`  ${name}: seeded in ${seedSeconds.toFixed(1)} s`);
    for (const days of [7, 30, 90]) {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < runsPerPeriod; run++) {
        const started = performance.now();
        const response = await fetch(`${server.baseUrl}/api/insights?days=${days}`, { headers: { cookie } });
        bytes = (await response.arrayBuffer()).byteLength;
        if (!response.ok) throw new Error(`GET /api/insights?days=${days} answered ${response.status}`);
        times.push(performance.now() - started);
      }
      const sorted = times.sort((a, b) => a - b);
      console.log(
        `    days=${String(days).padEnd(2)}  median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, first ${times[0]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms (${runsPerPeriod} runs, ${(bytes / 1024).toFixed(0)} KB)`,
      );
    }
  } finally {
    await server.close();
  }
}

console.log(
  `Insights API on a year of data: ${year.readers} readers, ${year.questions} questions, ${year.ratedConversations} rated answers, ${year.searches} searches`,
);
const embedded = await openStore({ dataDirectory: inMemoryDataDirectory });
try {
  await measure('PGlite (embedded)', embedded);
} finally {
  await embedded.close();
}
if (process.env.SKIP_POSTGRES_TESTS !== '1') {
  const database = await createPostgresTestDatabase();
  // Seeding a year in a few statements takes longer than the server's query timeout allows a reader's request.
  const store = await openStore({ ...database.options, timeouts: { connectSeconds: 10, querySeconds: 600 } });
  try {
    await measure('PostgreSQL', store);
  } finally {
    await store.close();
    await database.drop();
  }
}
