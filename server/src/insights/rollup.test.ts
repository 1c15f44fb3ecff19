import { insightsPeriods } from '@acme/contract';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFiguresDirectly, readInsightsDirectly } from '../../test-support/insights-direct.js';
import {
  ago,
  leakedToken,
  ratedDownConversation,
  rolledUp,
  seedInsightsHistory,
} from '../../test-support/insights-history.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { deleteThread } from '../store/conversations.js';
import { pruneQuestions } from '../store/questions.js';
import { searchQueries } from '../store/schema.js';
import { markSearchResultOpened, pruneSearchQueries } from '../store/search-queries.js';
import { figuresOf, insightsPeriod, readInsights, readInsightsFigures } from './insights.js';
import { readPlanned } from './rollup.js';
import { readInsightsSummary } from './summary.js';

/**
 * The insights read from daily sums give exactly the figures of the plain computation over the log, on every backend,
 * before and after the log changes under sums already written.
 */
for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`insights from daily sums on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const now = new Date();
    let deletedThread = '';
    let threadDeletedMidRead = '';

    beforeAll(async () => {
      await seedInsightsHistory(store.db, now);
      await ratedDownConversation(store.db, {
        reader: 'reader-0',
        question: 'Why does the CLI say E401?',
        comment: `Too vague, token=${leakedToken}`,
        at: ago(now, 3),
      });
      deletedThread = await ratedDownConversation(store.db, {
        reader: 'reader-2',
        question: 'A question the reader later deleted',
        comment: 'a comment that must vanish',
        at: ago(now, 20),
      });
      threadDeletedMidRead = await ratedDownConversation(store.db, {
        reader: 'reader-1',
        question: 'A question deleted while the insights were read',
        comment: 'a comment deleted mid-read',
        at: ago(now, 15),
      });
    });

    /** Every period of the page, and a report's period starting mid-day, equal to the plain computation. */
    async function expectSameAsPlain() {
      for (const days of insightsPeriods) {
        const fast = await readInsights(store.db, { days, now, lastDocsBuildAt: null });
        expect(fast, `${days} days`).toEqual(await readInsightsDirectly(store.db, { days, now }));
      }
      const report = { from: ago(now, 45, 7), to: now };
      const plain = await readFiguresDirectly(store.db, report);
      // The API reads an answer's question only where a comment is shown beside it.
      const ratedDown = plain.ratedDown.map((answer) => ({ ...answer, question: answer.comment && answer.question }));
      expect(await readInsightsFigures(store.db, report)).toEqual({ ...plain, ratedDown });
    }

    it('gives the figures of the plain computation, and reads them from the sums once the days are over', async () => {
      await expectSameAsPlain();
      const rolled = await rolledUp(store.db);
      // The 90-day period: every day before today that is over.
      expect(rolled.days).toBeGreaterThanOrEqual(89);
      await expectSameAsPlain();
    });

    it('answers from the sums: a changed daily sum shows (so the fast path is the one tested)', async () => {
      const day = ago(now, 10).toISOString().slice(0, 10);
      const before = await readInsights(store.db, { days: 30, now, lastDocsBuildAt: null });
      await store.db.execute(sql`update insights_question_days set answered = answered + 100 where day = ${day}::date`);
      const after = await readInsights(store.db, { days: 30, now, lastDocsBuildAt: null });
      await store.db.execute(sql`update insights_question_days set answered = answered - 100 where day = ${day}::date`);

      expect(after.questions.answered).toBe(before.questions.answered + 100);
      expect(after.questions.perDay.find((entry) => entry.day === day)?.answered).toBe(
        (before.questions.perDay.find((entry) => entry.day === day)?.answered ?? 0) + 100,
      );
    });

    it('drops a conversation deleted after its day was summed up, and masks credentials everywhere', async () => {
      const withIt = await readInsights(store.db, { days: 30, now, lastDocsBuildAt: null });
      expect(JSON.stringify(withIt)).toContain('a comment that must vanish');

      await deleteThread(store.db, { reader: 'reader-2', threadId: deletedThread });

      await expectSameAsPlain();
      const withoutIt = await readInsights(store.db, { days: 90, now, lastDocsBuildAt: null });
      const json = JSON.stringify(withoutIt);
      expect(json).not.toContain('a comment that must vanish');
      expect(json).not.toContain('A question the reader later deleted');
      expect(json).not.toContain(leakedToken);
      expect(json).toContain('npm token=[redacted]');
      expect((await readInsights(store.db, { days: 30, now, lastDocsBuildAt: null })).questions.total).toBe(
        withIt.questions.total - 1,
      );
    });

    it('follows a search opened after its day was summed up, and a pruned log', async () => {
      const before = await readInsights(store.db, { days: 7, now, lastDocsBuildAt: null });
      const [missed] = await store.db
        .select()
        .from(searchQueries)
        .where(
          and(
            eq(searchQueries.clicked, false),
            sql`result_count > 0 and created_at < ${ago(now, 2).toISOString()} and created_at > ${ago(now, 5).toISOString()}`,
          ),
        )
        .limit(1);
      if (!missed) throw new Error('the seed has no search left unopened before yesterday');
      const opened = await markSearchResultOpened(store.db, {
        reader: missed.reader,
        query: missed.query,
        now: new Date(missed.createdAt.getTime() + 60_000),
      });
      expect(opened).toBe(true);
      await expectSameAsPlain();
      const after = await readInsights(store.db, { days: 7, now, lastDocsBuildAt: null });
      expect(after.searches.withoutClick).toBe(before.searches.withoutClick - 1);

      await pruneQuestions(store.db, ago(now, 60));
      await pruneSearchQueries(store.db, ago(now, 60));
      await expectSameAsPlain();
      const pruned = await readInsights(store.db, { days: 90, now, lastDocsBuildAt: null });
      expect(pruned.questions.perDay.slice(0, 25).every((day) => day.answered + day.closest + day.none === 0)).toBe(
        true,
      );
    });

    it('reads again when a day is forgotten while its queries run', async () => {
      const period = insightsPeriod(30, now);
      await readInsightsFigures(store.db, period);
      let reads = 0;
      const figures = await readPlanned(store.db, period, async (db, plan) => {
        reads += 1;
        // A reader deletes a conversation of a summed-up day after the plan was made, before the queries run.
        if (reads === 1) await deleteThread(store.db, { reader: 'reader-1', threadId: threadDeletedMidRead });
        return figuresOf(db, plan);
      });

      expect(reads).toBe(2);
      const plain = await readFiguresDirectly(store.db, period);
      const ratedDown = plain.ratedDown.map((answer) => ({ ...answer, question: answer.comment && answer.question }));
      expect(figures).toEqual({ ...plain, ratedDown });
      expect(JSON.stringify(figures)).not.toContain('deleted mid-read');
    });

    it('gives the report the same summary as the plain computation, for a period that starts mid-day', async () => {
      const period = { from: ago(now, 12, 5), to: ago(now, 0, 1) };
      const plain = await readFiguresDirectly(store.db, period);
      const summary = await readInsightsSummary(store.db, period);
      const sum = (key: 'answered' | 'closest' | 'none') => plain.perDay.reduce((total, day) => total + day[key], 0);

      expect(summary.questions).toEqual({
        total: sum('answered') + sum('closest') + sum('none'),
        answered: sum('answered'),
        closest: sum('closest'),
        none: sum('none'),
      });
      expect(summary.searches).toMatchObject(plain.totals);
      expect(summary.searches.noResult).toEqual(plain.noResult.slice(0, 10));
    });
  });
}
