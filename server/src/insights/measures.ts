import { type SQL, sql } from 'drizzle-orm';

/**
 * What the insights count, as SQL over one logged row, shared by the daily sums (rollup.ts), the reading of the log
 * itself (queries.ts) and the plain computation the tests and the bench compare them with: one text, one meaning.
 */

/** How an entry logged before confidences were kept counts: covered is answered, anything else not covered. */
export const confidence = sql`coalesce(confidence, case when covered then 'answered' else 'none' end)`;

/** The UTC day a logged question or search belongs to. */
export const utcDay = sql`(created_at at time zone 'UTC')::date`;

/** Questions by confidence, as `answered`, `closest` and `none`. */
export const questionCounts = sql`count(*) filter (where ${confidence} = 'answered')::int as answered,
  count(*) filter (where ${confidence} = 'closest')::int as closest,
  count(*) filter (where ${confidence} = 'none')::int as none`;

/** Over `questions cross join lateral jsonb_array_elements(questions.sources) as source`: the page a source is on. */
export const sourcePage = sql`split_part(source->>'url', '#', 1)`;
/** ...its title (the page's, not the section's), and how many answers cite it (a section counts for its page). */
export const sourcePageTitle = sql`max(split_part(source->>'title', ' › ', 1))`;
export const citingAnswers = sql`count(distinct questions.id)::int`;

/** Searches: all, without a result, with results none of which was opened. */
export const searchCounts = sql`count(*)::int as total,
  count(*) filter (where result_count = 0)::int as without_result,
  count(*) filter (where result_count > 0 and not clicked)::int as without_click`;

export type SearchMissKind = 'no-result' | 'no-click';

/** A search that found nothing (`no-result`), or found results nobody opened (`no-click`). */
export const missed = (kind: SearchMissKind): SQL =>
  kind === 'no-result' ? sql`result_count = 0` : sql`result_count > 0 and not clicked`;

/**
 * A LIMIT written into the query's text: as a parameter, PostgreSQL's generic plan for a prepared statement cannot
 * see how few rows are wanted, and sorts a whole period instead of reading the newest rows off an index.
 */
export function limitTo(rows: number): SQL {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new RangeError(`A row limit must be a positive integer: ${rows}`);
  return sql.raw(`limit ${rows}`);
}
