/**
 * The maintainers' insights on a year of data for 500 readers, generated here: about 250,000 questions, 12,500
 * rated conversations and 625,000 searches. Prints how long GET /api/insights takes for each period, on the embedded
 * PGlite and on PostgreSQL, through the real server, beside the plain computation straight from the log (no daily
 * sums) as a reference. The first request of a period sums up its days; the median is what a maintainer waits
 * afterwards. Figures only; it never fails on a number, only when the API's figures differ from the plain ones.
 */
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { insightsPeriods } from '@acme/contract';
import { startServer } from '../e2e/harness';
import { sessionCookieFor } from '../e2e/sign-in';
import { readInsights } from '../server/src/insights/insights';
import { inMemoryDataDirectory, openStore, type Store } from '../server/src/store/database';
import { readInsightsDirectly } from '../server/test-support/insights-direct';
import { seedInsightsYear } from '../server/test-support/insights-year';
import { createPostgresTestDatabase } from '../server/test-support/test-databases';

const year = { readers: 500, questions: 250_000, ratedConversations: 12_500, searches: 625_000 };
const runsPerPeriod = 9;
const maintainer = 'bench.maintainer@acme.dev';

/** Median, first and slowest of a few runs, in whole milliseconds. */
async function timed(run: () => Promise<unknown>, runs = runsPerPeriod) {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (value: number | undefined) => (value ?? 0).toFixed(0);
  return { median: ms(sorted[Math.floor(sorted.length / 2)]), first: ms(times[0]), max: ms(sorted.at(-1)) };
}

async function measure(name: string, store: Store) {
  const seedStarted = performance.now();
  await seedInsightsYear(store.db, year);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const server = await startServer({ LOG_LEVEL: 'silent', MAINTAINERS: maintainer }, { store });
  try {
    const cookie = await sessionCookieFor(server.baseUrl, maintainer);
    console.log(`  ${name}: seeded in ${seedSeconds.toFixed(1)} s`);
    // What any request of a maintainer costs before a figure is read: the session and maintainer checks, a 400.
    const floor = await timed(async () => {
      const response = await fetch(`${server.baseUrl}/api/insights?days=1`, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.status !== 400) throw new Error(`GET /api/insights?days=1 answered ${response.status}`);
    });
    console.log(`    floor (signed-in request refused before reading): median ${floor.median} ms`);
    for (const days of insightsPeriods) {
      let bytes = 0;
      const api = await timed(async () => {
        const response = await fetch(`${server.baseUrl}/api/insights?days=${days}`, { headers: { cookie } });
        bytes = (await response.arrayBuffer()).byteLength;
        if (!response.ok) throw new Error(`GET /api/insights?days=${days} answered ${response.status}`);
      });
      const direct = await timed(() => readInsightsDirectly(store.db, { days }), 5);
      console.log(
        `    days=${String(days).padEnd(2)}  API median ${api.median} ms (first ${api.first}, max ${api.max}, ${(bytes / 1024).toFixed(0)} KB)` +
          ` | plain computation median ${direct.median} ms (first ${direct.first}, max ${direct.max})`,
      );
      const now = new Date();
      const same = isDeepStrictEqual(
        await readInsights(store.db, { days, now, lastDocsBuildAt: null }),
        await readInsightsDirectly(store.db, { days, now }),
      );
      if (!same) process.exitCode = 1;
      console.log(`              same figures as the plain computation: ${same ? 'yes' : 'NO'}`);
    }
  } finally {
    await server.close();
  }
}

console.log(
  `(${runsPerPeriod} runs per period; load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')})`,
);
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
