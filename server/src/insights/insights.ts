import type { InsightsPeriod, InsightsResponse, QuestionDay, RatedDownPage, SearchMiss } from '@acme/contract';
import { redactSecrets } from '../redact-secrets.js';
import type { Database } from '../store/database.js';
import type { Period, PeriodPlan } from './period-plan.js';
import {
  pagesAnswersRestOn,
  questionsPerDay,
  type RatedDownAnswer,
  ratedDownAnswers,
  type SearchTotals,
  searchMisses,
  searchTotals,
  type UnansweredQuestion,
  unansweredQuestions,
} from './queries.js';
import { readPlanned } from './rollup.js';
import { groupIntoTopics } from './topics.js';

const dayMs = 86_400_000;
const listLength = 10;
const commentsPerPage = 5;

/** What the insights page's figures are made of, as the named queries return them. */
export type InsightsFigures = {
  perDay: QuestionDay[];
  unanswered: UnansweredQuestion[];
  pagesUsed: Array<{ url: string; title: string; answers: number }>;
  ratedDown: RatedDownAnswer[];
  totals: SearchTotals;
  noResult: SearchMiss[];
  noClick: SearchMiss[];
};

/** How many rows each list of the figures reads: the API and the plain computation the tests compare it with. */
export const figureLimits = {
  /** Enough rows to group into topics and pages without reading a year of log into memory. */
  grouped: 2000,
  pages: listLength,
  misses: listLength * 2,
};

/** The period the page shows for the last `days` days up to `now`: whole UTC days, today up to now. */
export function insightsPeriod(days: InsightsPeriod, now: Date): Period {
  return { from: new Date(startOfUtcDay(now).getTime() - (days - 1) * dayMs), to: now };
}

/** Everything the insights page shows for the last `days` days up to `now`; the API and the report share it. */
export async function readInsights(
  db: Database,
  { days, now = new Date(), lastDocsBuildAt }: { days: InsightsPeriod; now?: Date; lastDocsBuildAt: Date | null },
): Promise<InsightsResponse> {
  const period = insightsPeriod(days, now);
  return insightsFrom(await readInsightsFigures(db, period), { days, period, lastDocsBuildAt });
}

/** The figures of any period, from the daily sums where they hold and the log elsewhere. */
export function readInsightsFigures(db: Database, period: Period): Promise<InsightsFigures> {
  return readPlanned(db, period, (db, plan) => figuresOf(db, plan));
}

/** The figures as the plan says to read them; side by side on PostgreSQL's connections, one by one on PGlite. */
export async function figuresOf(db: Database, plan: PeriodPlan): Promise<InsightsFigures> {
  const period = { from: plan.from, to: plan.to };
  const [perDay, unanswered, pagesUsed, ratedDown, totals, noResult, noClick] = await Promise.all([
    questionsPerDay(db, plan),
    unansweredQuestions(db, { ...period, limit: figureLimits.grouped }),
    pagesAnswersRestOn(db, plan, { limit: figureLimits.pages }),
    ratedDownAnswers(db, { ...period, limit: figureLimits.grouped }),
    searchTotals(db, plan),
    searchMisses(db, { ...period, kind: 'no-result', limit: figureLimits.misses }),
    searchMisses(db, { ...period, kind: 'no-click', limit: figureLimits.misses }),
  ]);
  return { perDay, unanswered, pagesUsed, ratedDown, totals, noResult, noClick };
}

/** The page's figures from what the queries returned. */
export function insightsFrom(
  { perDay, unanswered, pagesUsed, ratedDown, totals, noResult, noClick }: InsightsFigures,
  { days, period, lastDocsBuildAt }: { days: InsightsPeriod; period: Period; lastDocsBuildAt: Date | null },
): InsightsResponse {
  const sum = (key: keyof Omit<QuestionDay, 'day'>) => perDay.reduce((total, day) => total + day[key], 0);
  return {
    days,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    lastDocsBuildAt: lastDocsBuildAt?.toISOString() ?? null,
    questions: {
      total: sum('answered') + sum('closest') + sum('none'),
      answered: sum('answered'),
      closest: sum('closest'),
      none: sum('none'),
      perDay: everyDay(period.from, days, perDay),
    },
    unansweredTopics: groupIntoTopics(unanswered, { limit: listLength * 2 }),
    pagesAnswersRestOn: pagesUsed,
    pagesRatedDown: groupRatedDown(ratedDown).slice(0, listLength),
    searches: { ...totals, noResult, noClick },
  };
}

const startOfUtcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/** One entry per day of the period, zeros where nobody asked: a chart's gaps are days, not missing points. */
function everyDay(from: Date, days: number, counted: readonly QuestionDay[]): QuestionDay[] {
  const byDay = new Map(counted.map((day) => [day.day, day]));
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(from.getTime() + index * dayMs).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, answered: 0, closest: 0, none: 0 };
  });
}

/**
 * The pages of answers rated down, those most readers rated down first (one reader rating answer after answer counts
 * once), ties by more ratings, then by address. An answer counts once, for the page it rests on (its first source):
 * counted for every page it cited, one rating read as several complaints. A page shows each reader's latest comment
 * on it, newest first, so that no one reader can fill its comments with text of their choosing.
 */
export function groupRatedDown(answers: readonly RatedDownAnswer[]): RatedDownPage[] {
  const pages = new Map<string, { page: RatedDownPage; readers: Set<string>; commenters: Set<string> }>();
  const newestFirst = [...answers].sort((a, b) => b.ratedAt.getTime() - a.ratedAt.getTime());
  for (const answer of newestFirst) {
    const [first] = answer.sources;
    const url = first ? first.url.split('#')[0] || first.url : '';
    const title = first ? (first.title.split(' › ')[0] ?? first.title) : 'Answers that cited no page';
    const entry = pages.get(url) ?? {
      page: { url, title, readers: 0, ratedDown: 0, comments: [] },
      readers: new Set(),
      commenters: new Set(),
    };
    entry.page.ratedDown += 1;
    entry.readers.add(answer.reader);
    const { comments } = entry.page;
    if (answer.comment?.trim() && !entry.commenters.has(answer.reader) && comments.length < commentsPerPage) {
      entry.commenters.add(answer.reader);
      comments.push({
        // Comments and conversations are kept as written; what maintainers see is masked like the questions log.
        comment: redactSecrets(answer.comment),
        question: answer.question && redactSecrets(answer.question),
        at: answer.ratedAt.toISOString(),
      });
    }
    pages.set(url, entry);
  }
  return [...pages.values()]
    .map(({ page, readers }) => ({ ...page, readers: readers.size }))
    .sort((a, b) => b.readers - a.readers || b.ratedDown - a.ratedDown || a.url.localeCompare(b.url));
}
