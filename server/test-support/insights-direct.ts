import type { InsightsPeriod, InsightsResponse } from '@acme/contract';
import { sql } from 'drizzle-orm';
import { figureLimits, type InsightsFigures, insightsFrom, insightsPeriod } from '../src/insights/insights.js';
import type { Period } from '../src/insights/period-plan.js';
import type { RatedDownAnswer, UnansweredQuestion } from '../src/insights/queries.js';
import { rowsOf } from '../src/insights/query-rows.js';
import type { Database } from '../src/store/database.js';

/**
 * The insights computed the plain way, straight from the log, as the API did before the daily sums (the queries as
 * they were, run side by side): what the tests hold the API's figures to, and what the bench times the API against.
 * Only the lists of misses name a last tie-break (the query), which the plain queries left to chance, and rank by
 * readers (count distinct), as the API does since one reader's repeated searches count once.
 */
export async function readInsightsDirectly(
  db: Database,
  { days, now = new Date() }: { days: InsightsPeriod; now?: Date },
): Promise<InsightsResponse> {
  const period = insightsPeriod(days, now);
  return insightsFrom(await readFiguresDirectly(db, period), { days, period, lastDocsBuildAt: null });
}

const confidence = sql`coalesce(confidence, case when covered then 'answered' else 'none' end)`;

export async function readFiguresDirectly(db: Database, { from, to }: Period): Promise<InsightsFigures> {
  const within = sql`created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}`;
  const [perDay, unanswered, pagesUsed, ratedDown, [totals], noResult, noClick] = await Promise.all([
    rowsOf<{ day: string; answered: number; closest: number; none: number }>(
      db,
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
            count(*) filter (where ${confidence} = 'answered')::int as answered,
            count(*) filter (where ${confidence} = 'closest')::int as closest,
            count(*) filter (where ${confidence} = 'none')::int as none
          from questions where ${within} group by 1 order by 1`,
    ),
    rowsOf<{
      reader: string;
      question: string;
      confidence: 'closest' | 'none';
      nearest_page_url: string | null;
      nearest_page_title: string | null;
      created_at: string | Date;
    }>(
      db,
      sql`select reader, coalesce(asked, question) as question, ${confidence} as confidence, nearest_page_url,
            nearest_page_title, created_at
          from questions where ${within} and ${confidence} <> 'answered'
          order by created_at desc limit ${figureLimits.grouped}`,
    ),
    rowsOf<{ url: string; title: string; answers: number }>(
      db,
      sql`select split_part(source->>'url', '#', 1) as url,
            max(split_part(source->>'title', ' › ', 1)) as title,
            count(distinct questions.id)::int as answers
          from questions cross join lateral jsonb_array_elements(questions.sources) as source
          where ${within} group by 1 order by answers desc, url limit ${figureLimits.pages}`,
    ),
    rowsOf<{
      reader: string;
      sources: RatedDownAnswer['sources'];
      comment: string | null;
      question: Array<{ text: string }> | null;
      updated_at: string | Date;
    }>(
      db,
      sql`select feedback.reader, answer.sources, feedback.comment, asked.content as question, feedback.updated_at
          from feedback
          join messages as answer on answer.id = feedback.message_id
          left join messages as asked on asked.id = answer.parent_id
          where feedback.rating = 'negative'
            and feedback.updated_at >= ${from.toISOString()} and feedback.updated_at < ${to.toISOString()}
          order by feedback.updated_at desc limit ${figureLimits.grouped}`,
    ),
    rowsOf<InsightsFigures['totals']>(
      db,
      sql`select count(*)::int as total,
            count(*) filter (where result_count = 0)::int as "withoutResult",
            count(*) filter (where result_count > 0 and not clicked)::int as "withoutClick"
          from search_queries where ${within}`,
    ),
    searchMisses(db, within, sql`result_count = 0`),
    searchMisses(db, within, sql`result_count > 0 and not clicked`),
  ]);
  return {
    perDay,
    unanswered: unanswered.map(
      (row): UnansweredQuestion => ({
        reader: row.reader,
        question: row.question,
        confidence: row.confidence,
        nearestPageUrl: row.nearest_page_url,
        nearestPageTitle: row.nearest_page_title,
        askedAt: new Date(row.created_at),
      }),
    ),
    pagesUsed,
    ratedDown: ratedDown.map((row) => ({
      reader: row.reader,
      sources: row.sources,
      comment: row.comment,
      question: row.question?.map((part) => part.text).join(' ') || null,
      ratedAt: new Date(row.updated_at),
    })),
    totals: totals ?? { total: 0, withoutResult: 0, withoutClick: 0 },
    noResult,
    noClick,
  };
}

async function searchMisses(db: Database, within: ReturnType<typeof sql>, missed: ReturnType<typeof sql>) {
  const rows = await rowsOf<{ query: string; readers: number; searches: number; last_at: string | Date }>(
    db,
    sql`select lower(query) as query, count(distinct reader)::int as readers, count(*)::int as searches,
          max(created_at) as last_at
        from search_queries where ${within} and ${missed}
        group by 1 order by readers desc, searches desc, last_at desc, query limit ${figureLimits.misses}`,
  );
  return rows.map((row) => ({
    query: row.query,
    readers: row.readers,
    searches: row.searches,
    lastAt: new Date(row.last_at).toISOString(),
  }));
}
