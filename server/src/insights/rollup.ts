import { sql } from 'drizzle-orm';
import type { Database } from '../store/database.js';
import { citingAnswers, questionCounts, searchCounts, sourcePage, sourcePageTitle, utcDay } from './measures.js';
import {
  createdWithin,
  type DayRun,
  type Period,
  type PeriodPlan,
  planPeriod,
  runsOf,
  spanOf,
  wholeDaysOf,
} from './period-plan.js';
import { rowsOf } from './query-rows.js';

/** Taken exclusively while days are summed up, shared by the triggers that forget days (migration 0012). */
const rollupLock = sql`hashtext('insights-rollup')`;

/** Readings that find the sums changed under them before one is read in a single snapshot. */
const attemptsSideBySide = 3;

/**
 * Reads a period consistently: the days of it that are over (by the database's clock) and not yet summed up are
 * summed up first, then `read` runs with the plan of what to read from the sums and what from the log. Its queries
 * may run side by side on several connections: when the summed-up days (each with its generation) are the same
 * after them as before, no query can have missed a day forgotten in between. When they are not, it reads again;
 * after a few such tries, in one read-only snapshot.
 */
export async function readPlanned<T>(
  db: Database,
  period: Period,
  read: (db: Database, plan: PeriodPlan) => Promise<T>,
): Promise<T> {
  await rollUpClosedDays(db, period);
  const days = wholeDaysOf(period);
  if (!days) return read(db, planPeriod(period, []));
  for (let attempt = 0; attempt < attemptsSideBySide; attempt++) {
    const before = await readSummedUp(db, days);
    const result = await read(db, planPeriod(period, before.days));
    if ((await readSummedUp(db, days)).version === before.version) return result;
  }
  return db.transaction(
    async (tx) => {
      const summed = await readSummedUp(tx, days);
      return read(tx, planPeriod(period, summed.days));
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The summed-up days within whole days, and a version that changes whenever any of them does. */
async function readSummedUp(db: Database, { first, end }: DayRun) {
  const [row] = await rowsOf<{ days: Array<[string, number]> | null }>(
    db,
    sql`select json_agg(json_build_array(to_char(day, 'YYYY-MM-DD'), generation) order by day) as days
        from insights_rolled_days where day >= ${first}::date and day < ${end}::date`,
  );
  const days = row?.days ?? [];
  return { days: days.map(([day]) => day), version: JSON.stringify(days) };
}

/**
 * Sums up the period's whole days that are over, from the first day anything was logged; a day already summed up is
 * left alone. Cheap when there is nothing to do: one query, no lock. The searches missed are not summed up: a day's
 * sums cannot tell whether two days' searches of a query were one reader's or two (queries.ts reads them from the log).
 */
export async function rollUpClosedDays(db: Database, period: Period): Promise<void> {
  const days = wholeDaysOf(period);
  if (!days) return;
  const firstLogged = sql`(least((select min(created_at) from questions), (select min(created_at) from search_queries))
    at time zone 'UTC')::date`;
  const bounds = sql`select greatest(${days.first}::date, coalesce(${firstLogged}, ${days.end}::date)) as start,
      least(${days.end}::date, (now() at time zone 'UTC')::date) as stop`;
  const state = sql`select to_char(start, 'YYYY-MM-DD') as first, to_char(stop, 'YYYY-MM-DD') as end,
      greatest(stop - start, 0) as days,
      (select count(*)::int from insights_rolled_days where day >= start and day < stop) as rolled
    from (${bounds}) as bounds`;
  const done = (now: { days: number; rolled: number } | undefined) => !now || now.rolled === now.days;
  type State = DayRun & { days: number; rolled: number };
  if (done((await rowsOf<State>(db, state))[0])) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${rollupLock})`);
    const [now] = await rowsOf<State>(tx, state);
    if (!now || done(now)) return;
    const added = await rowsOf<{ day: string }>(
      tx,
      sql`insert into insights_rolled_days (day)
          select ${now.first}::date + n from generate_series(0, ${now.days}::int - 1) as n
          on conflict do nothing returning to_char(day, 'YYYY-MM-DD') as day`,
    );
    if (added.length > 0) await sumUpDays(tx, added.map((row) => row.day).sort());
    // The planner has no figures for tables filled just now; PGlite never gathers them by itself.
    await tx.execute(sql`analyze insights_rolled_days, insights_page_days`);
  });
}

/** Writes the daily sums of the given days (just marked as summed up, so without sums yet). */
async function sumUpDays(db: Database, days: readonly string[]) {
  const within = createdWithin(runsOf(days).map(spanOf));
  await db.execute(sql`insert into insights_question_days (day, answered, closest, none)
    select ${utcDay}, ${questionCounts} from questions where ${within} group by 1`);
  await db.execute(sql`insert into insights_page_days (day, url, title, answers)
    select ${utcDay}, ${sourcePage}, ${sourcePageTitle}, ${citingAnswers}
    from questions cross join lateral jsonb_array_elements(questions.sources) as source
    where ${within} group by 1, 2`);
  await db.execute(sql`insert into insights_search_days (day, total, without_result, without_click)
    select ${utcDay}, ${searchCounts} from search_queries where ${within} group by 1`);
}
