import type { InsightsPeriod, InsightsResponse, QuestionDay, RatedDownPage } from '@acme/contract';
import { redactSecrets } from '../redact-secrets.js';
import type { Database } from '../store/database.js';
import {
  pagesAnswersRestOn,
  questionsPerDay,
  type RatedDownAnswer,
  ratedDownAnswers,
  searchMisses,
  searchTotals,
  unansweredQuestions,
} from './queries.js';
import { groupIntoTopics } from './topics.js';

const dayMs = 86_400_000;
/** Enough rows to group into topics and pages without reading a year of log into memory. */
const groupedRowsLimit = 2000;
const listLength = 10;
const commentsPerPage = 5;

/** Everything the insights page shows for the last `days` days up to `now`; the API and the report share it. */
export async function readInsights(
  db: Database,
  { days, now = new Date(), lastDocsBuildAt }: { days: InsightsPeriod; now?: Date; lastDocsBuildAt: Date | null },
): Promise<InsightsResponse> {
  const to = now;
  const from = new Date(startOfUtcDay(now).getTime() - (days - 1) * dayMs);
  const period = { from, to };
  const [perDay, unanswered, pagesUsed, ratedDown, totals, noResult, noClick] = await Promise.all([
    questionsPerDay(db, period),
    unansweredQuestions(db, { ...period, limit: groupedRowsLimit }),
    pagesAnswersRestOn(db, { ...period, limit: listLength }),
    ratedDownAnswers(db, { ...period, limit: groupedRowsLimit }),
    searchTotals(db, period),
    searchMisses(db, { ...period, kind: 'no-result', limit: listLength * 2 }),
    searchMisses(db, { ...period, kind: 'no-click', limit: listLength * 2 }),
  ]);
  const sum = (key: keyof Omit<QuestionDay, 'day'>) => perDay.reduce((total, day) => total + day[key], 0);
  return {
    days,
    from: from.toISOString(),
    to: to.toISOString(),
    lastDocsBuildAt: lastDocsBuildAt?.toISOString() ?? null,
    questions: {
      total: sum('answered') + sum('closest') + sum('none'),
      answered: sum('answered'),
      closest: sum('closest'),
      none: sum('none'),
      perDay: everyDay(from, days, perDay),
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

/** The pages of answers rated down, most rated down first; an answer counts once for each page it cites. */
export function groupRatedDown(answers: readonly RatedDownAnswer[]): RatedDownPage[] {
  const pages = new Map<string, RatedDownPage>();
  for (const answer of answers) {
    const cited = new Map(answer.sources.map((source) => [source.url.split('#')[0] || source.url, source.title]));
    if (cited.size === 0) cited.set('', 'Answers that cited no page');
    for (const [url, title] of cited) {
      const page = pages.get(url) ?? { url, title: title.split(' › ')[0] ?? title, ratedDown: 0, comments: [] };
      page.ratedDown += 1;
      if (answer.comment?.trim() && page.comments.length < commentsPerPage) {
        page.comments.push({
          // Comments and conversations are kept as written; what maintainers see is masked like the questions log.
          comment: redactSecrets(answer.comment),
          question: answer.question && redactSecrets(answer.question),
          at: answer.ratedAt.toISOString(),
        });
      }
      pages.set(url, page);
    }
  }
  return [...pages.values()].sort((a, b) => b.ratedDown - a.ratedDown || a.url.localeCompare(b.url));
}
