import type { AnswerConfidence, QuestionDay, SearchMiss } from '@acme/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../store/database.js';
import { rowsOf } from './query-rows.js';

/**
 * The maintainers' figures as named queries, read by the insights page's API and by `npm run copilot:report`.
 * None selects an owner: readers are never named. Rows of a deleted conversation are gone with it (questions are
 * deleted with the thread, ratings cascade with its messages), so nothing here has to filter them out.
 */
export type Period = { from: Date; to: Date };

/** How an entry logged before confidences were kept counts: covered is answered, anything else not covered. */
const confidence = sql`coalesce(confidence, case when covered then 'answered' else 'none' end)`;

/** Questions a UTC day, by answered, closest and none; days with no question are left out. */
export async function questionsPerDay(db: Database, { from, to }: Period): Promise<QuestionDay[]> {
  const rows = await rowsOf<{ day: string; answered: number; closest: number; none: number }>(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
          count(*) filter (where ${confidence} = 'answered')::int as answered,
          count(*) filter (where ${confidence} = 'closest')::int as closest,
          count(*) filter (where ${confidence} = 'none')::int as none
        from questions where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}
        group by 1 order by 1`,
  );
  return rows.map((row) => ({ day: row.day, answered: row.answered, closest: row.closest, none: row.none }));
}

export type UnansweredQuestion = {
  question: string;
  confidence: Exclude<AnswerConfidence, 'answered'>;
  nearestPageUrl: string | null;
  nearestPageTitle: string | null;
  askedAt: Date;
};

/** The newest questions the docs did not answer (closest or none), for grouping into topics. */
export async function unansweredQuestions(
  db: Database,
  { from, to, limit }: Period & { limit: number },
): Promise<UnansweredQuestion[]> {
  const rows = await rowsOf<{
    question: string;
    confidence: 'closest' | 'none';
    nearest_page_url: string | null;
    nearest_page_title: string | null;
    created_at: string | Date;
  }>(
    db,
    sql`select question, ${confidence} as confidence, nearest_page_url, nearest_page_title, created_at
        from questions
        where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()} and ${confidence} <> 'answered'
        order by created_at desc limit ${limit}`,
  );
  return rows.map((row) => ({
    question: row.question,
    confidence: row.confidence,
    nearestPageUrl: row.nearest_page_url,
    nearestPageTitle: row.nearest_page_title,
    askedAt: new Date(row.created_at),
  }));
}

/** The pages answers cite most (a section counts for its page), with how many answers cite each. */
export async function pagesAnswersRestOn(
  db: Database,
  { from, to, limit }: Period & { limit: number },
): Promise<Array<{ url: string; title: string; answers: number }>> {
  return rowsOf(
    db,
    sql`select split_part(source->>'url', '#', 1) as url,
          max(split_part(source->>'title', ' › ', 1)) as title,
          count(distinct questions.id)::int as answers
        from questions cross join lateral jsonb_array_elements(questions.sources) as source
        where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}
        group by 1 order by answers desc, url limit ${limit}`,
  );
}

export type RatedDownAnswer = {
  sources: Array<{ url: string; title: string }>;
  comment: string | null;
  question: string | null;
  ratedAt: Date;
};

/** Answers rated down in the period, newest first, with the question they answered and the reader's comment. */
export async function ratedDownAnswers(
  db: Database,
  { from, to, limit }: Period & { limit: number },
): Promise<RatedDownAnswer[]> {
  const rows = await rowsOf<{
    sources: Array<{ url: string; title: string }>;
    comment: string | null;
    question: Array<{ text: string }> | null;
    updated_at: string | Date;
  }>(
    db,
    sql`select answer.sources, feedback.comment, asked.content as question, feedback.updated_at
        from feedback
        join messages as answer on answer.id = feedback.message_id
        left join messages as asked on asked.id = answer.parent_id
        where feedback.rating = 'negative'
          and feedback.updated_at >= ${from.toISOString()} and feedback.updated_at < ${to.toISOString()}
        order by feedback.updated_at desc limit ${limit}`,
  );
  return rows.map((row) => ({
    sources: row.sources,
    comment: row.comment,
    question: row.question?.map((part) => part.text).join(' ') || null,
    ratedAt: new Date(row.updated_at),
  }));
}

export type SearchTotals = { total: number; withoutResult: number; withoutClick: number };

/** How many searches the box saw, how many found nothing, and how many found something nobody opened. */
export async function searchTotals(db: Database, { from, to }: Period): Promise<SearchTotals> {
  const [row] = await rowsOf<SearchTotals>(
    db,
    sql`select count(*)::int as total,
          count(*) filter (where result_count = 0)::int as "withoutResult",
          count(*) filter (where result_count > 0 and not clicked)::int as "withoutClick"
        from search_queries where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}`,
  );
  return row ?? { total: 0, withoutResult: 0, withoutClick: 0 };
}

/** The searches most often left without a result (`no-result`) or with results nobody opened (`no-click`). */
export async function searchMisses(
  db: Database,
  { from, to, kind, limit }: Period & { kind: 'no-result' | 'no-click'; limit: number },
): Promise<SearchMiss[]> {
  const missed = kind === 'no-result' ? sql`result_count = 0` : sql`result_count > 0 and not clicked`;
  const rows = await rowsOf<{ query: string; searches: number; last_at: string | Date }>(
    db,
    sql`select lower(query) as query, count(*)::int as searches, max(created_at) as last_at
        from search_queries
        where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()} and ${missed}
        group by 1 order by searches desc, last_at desc limit ${limit}`,
  );
  return rows.map((row) => ({ query: row.query, searches: row.searches, lastAt: new Date(row.last_at).toISOString() }));
}
