import type { AnswerConfidence, QuestionDay, SearchMiss } from '@acme/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../store/database.js';
import {
  citingAnswers,
  confidence,
  limitTo,
  missed,
  questionCounts,
  type SearchMissKind,
  searchCounts,
  sourcePage,
  sourcePageTitle,
  utcDay,
} from './measures.js';
import { createdWithin, dayWithin, type Period, type PeriodPlan } from './period-plan.js';
import { rowsOf } from './query-rows.js';

export type { Period };

/**
 * The maintainers' figures as named queries, read by the insights page's API and by `npm run copilot:report`.
 * Readers are counted, never named: a reader key read here only tells readers apart and goes no further. Lists of
 * what readers asked or searched rank by how many readers did, so one reader repeating a text cannot put it on top.
 * Rows of a deleted conversation are gone with it (questions are deleted with the thread, ratings cascade with its
 * messages, and the day's sums are forgotten with them), so nothing here has to filter them out. Counts take a plan
 * (rollup.ts): whole days from the daily sums, the rest from the log; lists of the newest rows read the log through
 * an index that stops at the limit.
 */

/** Questions a UTC day, by answered, closest and none; days with no question are left out. */
export async function questionsPerDay(db: Database, plan: PeriodPlan): Promise<QuestionDay[]> {
  const rows = await rowsOf<{ day: string; answered: number; closest: number; none: number }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(answered)::int as answered, sum(closest)::int as closest,
          sum(none)::int as none
        from (select day, answered, closest, none from insights_question_days where ${dayWithin(plan.rolled)}
          union all
          select ${utcDay} as day, ${questionCounts} from questions where ${createdWithin(plan.live)} group by 1
        ) as days
        group by day order by day`,
  );
  return rows.map((row) => ({ day: row.day, answered: row.answered, closest: row.closest, none: row.none }));
}

export type UnansweredQuestion = {
  /** Who asked, as a reader key: for counting the readers of a topic, never shown. */
  reader: string;
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
    reader: string;
    question: string;
    confidence: 'closest' | 'none';
    nearest_page_url: string | null;
    nearest_page_title: string | null;
    created_at: string | Date;
  }>(
    db,
    // The question as the reader typed it; as it was searched for only in entries logged before that was kept.
    sql`select reader, coalesce(asked, question) as question, ${confidence} as confidence, nearest_page_url,
          nearest_page_title, created_at
        from questions
        where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()} and ${confidence} <> 'answered'
        order by created_at desc nulls last ${limitTo(limit)}`,
  );
  return rows.map((row) => ({
    reader: row.reader,
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
  plan: PeriodPlan,
  { limit }: { limit: number },
): Promise<Array<{ url: string; title: string; answers: number }>> {
  return rowsOf(
    db,
    sql`select url, max(title) as title, sum(answers)::int as answers
        from (select url, title, answers from insights_page_days where ${dayWithin(plan.rolled)}
          union all
          select ${sourcePage} as url, ${sourcePageTitle} as title, ${citingAnswers} as answers
          from questions cross join lateral jsonb_array_elements(questions.sources) as source
          where ${createdWithin(plan.live)} group by 1
        ) as pages
        group by url order by answers desc, url ${limitTo(limit)}`,
  );
}

export type RatedDownAnswer = {
  /** Who rated it down, as a reader key: for counting the readers of a page, never shown. */
  reader: string;
  sources: Array<{ url: string; title: string }>;
  comment: string | null;
  /** The question answered, when the reader left a comment (it is shown beside the comment only). */
  question: string | null;
  ratedAt: Date;
};

/** Answers rated down in the period, newest first, with who rated, their comment and the question it is about. */
export async function ratedDownAnswers(
  db: Database,
  { from, to, limit }: Period & { limit: number },
): Promise<RatedDownAnswer[]> {
  const rows = await rowsOf<{
    reader: string;
    sources: Array<{ url: string; title: string }>;
    comment: string | null;
    question: Array<{ text: string }> | null;
    updated_at: string | Date;
  }>(
    db,
    // The question is shown only beside a comment: read only for the answers that have one.
    sql`select feedback.reader, answer.sources, feedback.comment, feedback.updated_at,
          case when feedback.comment is not null
            then (select asked.content from messages as asked where asked.id = answer.parent_id) end as question
        from feedback
        join messages as answer on answer.id = feedback.message_id
        where feedback.rating = 'negative'
          and feedback.updated_at >= ${from.toISOString()} and feedback.updated_at < ${to.toISOString()}
        order by feedback.updated_at desc nulls last ${limitTo(limit)}`,
  );
  return rows.map((row) => ({
    reader: row.reader,
    sources: row.sources,
    comment: row.comment,
    question: row.question?.map((part) => part.text).join(' ') || null,
    ratedAt: new Date(row.updated_at),
  }));
}

export type SearchTotals = { total: number; withoutResult: number; withoutClick: number };

/** How many searches the box saw, how many found nothing, and how many found something nobody opened. */
export async function searchTotals(db: Database, plan: PeriodPlan): Promise<SearchTotals> {
  const [row] = await rowsOf<SearchTotals>(
    db,
    sql`select coalesce(sum(total), 0)::int as total, coalesce(sum(without_result), 0)::int as "withoutResult",
          coalesce(sum(without_click), 0)::int as "withoutClick"
        from (select total, without_result, without_click from insights_search_days where ${dayWithin(plan.rolled)}
          union all
          select ${searchCounts} from search_queries where ${createdWithin(plan.live)}
        ) as searches`,
  );
  return row ?? { total: 0, withoutResult: 0, withoutClick: 0 };
}

/**
 * The searches most readers left without a result (`no-result`) or with results nobody opened (`no-click`),
 * lower-cased, with how many readers and how many searches; ties by searches, then by the latest such search, then by
 * the query. Read from the log, not the daily sums: only the log tells one reader's searches from another's.
 */
export async function searchMisses(
  db: Database,
  { from, to, kind, limit }: Period & { kind: SearchMissKind; limit: number },
): Promise<SearchMiss[]> {
  const rows = await rowsOf<{ query: string; readers: number; searches: number; last_at: string | Date }>(
    db,
    sql`select query, count(*)::int as readers, sum(searches)::int as searches, max(last_at) as last_at
        from (select lower(query) as query, reader, count(*) as searches, max(created_at) as last_at
          from search_queries
          where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()} and ${missed(kind)}
          group by 1, 2
        ) as searched_by_reader
        group by query order by readers desc, searches desc, last_at desc, query ${limitTo(limit)}`,
  );
  return rows.map((row) => ({
    query: row.query,
    readers: row.readers,
    searches: row.searches,
    lastAt: new Date(row.last_at).toISOString(),
  }));
}
