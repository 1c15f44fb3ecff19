import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The maintainers' insights summed up per UTC day, so a 90-day view reads a few thousand sums instead of every logged
 * question and search (src/insights/rollup.ts). A day is rolled up lazily, on the first read that needs it once it is
 * over; today and any day not rolled up are read from the log itself. Triggers (migration 0012) forget a day, and with
 * it its sums and the spans over it, as soon as a row of that day is written, changed or deleted, so a deleted
 * conversation, a pruned log or a search opened after midnight is never counted from stale sums.
 */
export const insightsRolledDays = pgTable('insights_rolled_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  /** New each time the day is summed up: a reader that saw the same one before and after its queries read sums. */
  generation: bigint('generation', { mode: 'number' }).generatedAlwaysAsIdentity(),
});

/** A summed-up day; its sums go with it (a trigger of migration 0012: a foreign key would check every row written). */
const rolledDay = () => date('day', { mode: 'string' }).notNull();

/** Questions a day by confidence (the `coalesce` of insights/queries.ts). */
export const insightsQuestionDays = pgTable('insights_question_days', {
  day: rolledDay().primaryKey(),
  answered: integer('answered').notNull(),
  closest: integer('closest').notNull(),
  none: integer('none').notNull(),
});

/** Per day and page: how many answers cite the page, and the greatest of its titles that day. */
export const insightsPageDays = pgTable(
  'insights_page_days',
  { day: rolledDay(), url: text('url'), title: text('title'), answers: integer('answers').notNull() },
  (table) => [index('insights_page_days_day_index').on(table.day)],
);

/** Searches a day: all, without a result, with results none of which was opened. */
export const insightsSearchDays = pgTable('insights_search_days', {
  day: rolledDay().primaryKey(),
  total: integer('total').notNull(),
  withoutResult: integer('without_result').notNull(),
  withoutClick: integer('without_click').notNull(),
});

/** Per day, kind of miss and lower-cased query: how many such searches, and the last one's time. */
export const insightsSearchMissDays = pgTable(
  'insights_search_miss_days',
  {
    day: rolledDay(),
    kind: text('kind', { enum: ['no-result', 'no-click'] }).notNull(),
    query: text('query').notNull(),
    searches: integer('searches').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('insights_search_miss_days_kind_day_index').on(table.kind, table.day),
    check('insights_search_miss_days_kind_check', sql`${table.kind} in ('no-result', 'no-click')`),
  ],
);

/**
 * Runs of summed-up days (a period's days before today) whose misses are summed up as a whole below, so a 90-day
 * list of misses reads one row per query, not one per query and day. Forgotten with any day of the run (migration
 * 0012), and with it its sums; the run the page asks about is summed up with its days.
 */
export const insightsSpans = pgTable(
  'insights_spans',
  {
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    endDay: date('end_day', { mode: 'string' }).notNull(),
    generation: bigint('generation', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [primaryKey({ name: 'insights_spans_pk', columns: [table.firstDay, table.endDay] })],
);

/** `insights_search_miss_days` summed over a span. */
export const insightsSearchMissSpans = pgTable(
  'insights_search_miss_spans',
  {
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    endDay: date('end_day', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['no-result', 'no-click'] }).notNull(),
    query: text('query').notNull(),
    searches: integer('searches').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('insights_search_miss_spans_span_index').on(table.firstDay, table.endDay, table.kind),
    check('insights_search_miss_spans_kind_check', sql`${table.kind} in ('no-result', 'no-click')`),
  ],
);
