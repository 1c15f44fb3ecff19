import { z } from 'zod';
import { maxSearchQueryCharacters } from './search.js';

/** The periods the insights page offers, in days. */
export const insightsPeriods = [7, 30, 90] as const;
export type InsightsPeriod = (typeof insightsPeriods)[number];

/** GET /api/insights?days=7|30|90 (30 when left out). */
export const insightsQuerySchema = z.object({
  days: z
    .enum(['7', '30', '90'], { error: 'days is 7, 30 or 90' })
    .default('30')
    .transform((days) => Number(days) as InsightsPeriod),
});

/** POST /api/search/opened: the reader opened a result of this search (the search box and the /search page). */
export const searchOpenedSchema = z.strictObject({
  q: z.string().min(1, 'q is the search whose result was opened').max(maxSearchQueryCharacters),
});

export type InsightsPage = { url: string; title: string };

/** One UTC day's questions, by how the docs answered them. */
export type QuestionDay = { day: string; answered: number; closest: number; none: number };

/** Questions the docs did not answer that sit near one page and share words; the biggest topics come first. */
export type UnansweredTopic = {
  /** The words its questions share most, e.g. "typesense key rotate". */
  label: string;
  /** The page a maintainer would extend; null when no page came near (a page to write). */
  page: InsightsPage | null;
  count: number;
  /** A few of its questions, newest first. */
  examples: string[];
};

export type PageUse = InsightsPage & { answers: number };

export type RatedDownPage = InsightsPage & {
  ratedDown: number;
  comments: Array<{ comment: string; question: string | null; at: string }>;
};

export type SearchMiss = { query: string; searches: number; lastAt: string };

/** Everything the insights page shows, for one period; times are ISO strings (UTC). */
export type InsightsResponse = {
  days: InsightsPeriod;
  from: string;
  to: string;
  /** When the docs build being served was made; null when unknown. */
  lastDocsBuildAt: string | null;
  questions: {
    total: number;
    answered: number;
    closest: number;
    none: number;
    perDay: QuestionDay[];
  };
  unansweredTopics: UnansweredTopic[];
  pagesAnswersRestOn: PageUse[];
  pagesRatedDown: RatedDownPage[];
  searches: {
    total: number;
    withoutResult: number;
    withoutClick: number;
    noResult: SearchMiss[];
    noClick: SearchMiss[];
  };
};
