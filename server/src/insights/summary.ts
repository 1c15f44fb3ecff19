import type { SearchMiss, UnansweredTopic } from '@acme/contract';
import type { Database } from '../store/database.js';
import { type Period, questionsPerDay, searchMisses, searchTotals, unansweredQuestions } from './queries.js';
import { readPlanned } from './rollup.js';
import { groupIntoTopics } from './topics.js';

/** The insights page's headline figures for any period, for the report CLI (its --since need not be 7, 30 or 90). */
export type InsightsSummary = {
  questions: { total: number; answered: number; closest: number; none: number };
  unansweredTopics: UnansweredTopic[];
  searches: { total: number; withoutResult: number; withoutClick: number; noResult: SearchMiss[] };
};

export async function readInsightsSummary(db: Database, period: Period): Promise<InsightsSummary> {
  const [days, unanswered, totals, noResult] = await readPlanned(db, period, (tx, plan) =>
    Promise.all([
      questionsPerDay(tx, plan),
      unansweredQuestions(tx, { ...period, limit: 2000 }),
      searchTotals(tx, plan),
      searchMisses(tx, { ...period, kind: 'no-result', limit: 10 }),
    ]),
  );
  const answered = days.reduce((sum, day) => sum + day.answered, 0);
  const closest = days.reduce((sum, day) => sum + day.closest, 0);
  const none = days.reduce((sum, day) => sum + day.none, 0);
  return {
    questions: { total: answered + closest + none, answered, closest, none },
    unansweredTopics: groupIntoTopics(unanswered, { limit: 10 }),
    searches: { ...totals, noResult },
  };
}
