import { type SQL, sql } from 'drizzle-orm';

/** A span of time, `from` included, `to` not. */
export type Period = { from: Date; to: Date };

/** UTC days as `YYYY-MM-DD`, `first` included, `end` not. */
export type DayRun = { first: string; end: string };

/** Which part of a period is read from the daily sums (`rolled`) and which from the log itself (`live`). */
export type PeriodPlan = Period & { rolled: DayRun[]; live: Period[] };

const dayMs = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The UTC days that lie wholly inside the period: only they can be read from daily sums. */
export function wholeDaysOf({ from, to }: Period): DayRun | null {
  const first = Math.ceil(from.getTime() / dayMs) * dayMs;
  const end = Math.floor(to.getTime() / dayMs) * dayMs;
  return first < end ? { first: dayOf(first), end: dayOf(end) } : null;
}

/**
 * The plan for a period, given the days summed up (sorted, each inside the period's whole days): those days are
 * read from the sums, grouped into runs of consecutive days; every other instant of the period from the log.
 */
export function planPeriod(period: Period, rolledDays: readonly string[]): PeriodPlan {
  const rolled = runsOf(rolledDays);
  const live: Period[] = [];
  let cursor = period.from.getTime();
  for (const run of rolled) {
    if (cursor < startOf(run.first)) live.push({ from: new Date(cursor), to: new Date(startOf(run.first)) });
    cursor = startOf(run.end);
  }
  if (cursor < period.to.getTime()) live.push({ from: new Date(cursor), to: period.to });
  return { ...period, rolled, live };
}

/** Sorted days as runs of consecutive days. */
export function runsOf(days: readonly string[]): DayRun[] {
  const runs: DayRun[] = [];
  for (const day of days) {
    const last = runs.at(-1);
    const end = dayOf(startOf(day) + dayMs);
    if (last && last.end === day) last.end = end;
    else runs.push({ first: day, end });
  }
  return runs;
}

/** The time a run of days spans. */
export const spanOf = (run: DayRun): Period => ({ from: new Date(startOf(run.first)), to: new Date(startOf(run.end)) });

/** `created_at` within one of the spans (false for none). */
export function createdWithin(spans: readonly Period[]): SQL {
  if (spans.length === 0) return sql`false`;
  const each = spans.map(
    ({ from, to }) => sql`(created_at >= ${from.toISOString()} and created_at < ${to.toISOString()})`,
  );
  return sql`(${sql.join(each, sql` or `)})`;
}

/** A daily sum's `day` within one of the runs (false for none). */
export function dayWithin(runs: readonly DayRun[]): SQL {
  if (runs.length === 0) return sql`false`;
  const each = runs.map(({ first, end }) => sql`(day >= ${first}::date and day < ${end}::date)`);
  return sql`(${sql.join(each, sql` or `)})`;
}
