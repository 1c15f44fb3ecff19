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

const insightsPageSchema = z.strictObject({ url: z.string(), title: z.string() });
export type InsightsPage = z.infer<typeof insightsPageSchema>;

/** One UTC day's questions, by how the docs answered them. */
const questionDaySchema = z.strictObject({
  day: z.string(),
  answered: z.number(),
  closest: z.number(),
  none: z.number(),
});
export type QuestionDay = z.infer<typeof questionDaySchema>;

/**
 * Questions the docs did not answer that sit near one page and share words; the topics most readers asked about come
 * first (one reader asking again and again counts once).
 */
const unansweredTopicSchema = z.strictObject({
  /** The words its questions share most, e.g. "typesense key rotate". */
  label: z.string(),
  /** The page a maintainer would extend; null when no page came near (a page to write). */
  page: insightsPageSchema.nullable(),
  /** How many questions it holds. */
  count: z.number(),
  /** How many readers asked them: what the topics are ranked by. */
  readers: z.number(),
  /** A few of its questions, newest first. */
  examples: z.array(z.string()),
});
export type UnansweredTopic = z.infer<typeof unansweredTopicSchema>;

const pageUseSchema = insightsPageSchema.extend({ answers: z.number() });
export type PageUse = z.infer<typeof pageUseSchema>;

/**
 * A page whose answers were rated down; the pages most readers rated down come first (one reader rating answer after
 * answer counts once), with at most one comment of each reader, their latest.
 */
const ratedDownPageSchema = insightsPageSchema.extend({
  /** How many readers rated an answer resting on it down: what the pages are ranked by. */
  readers: z.number(),
  /** How many answers resting on it were rated down. */
  ratedDown: z.number(),
  comments: z.array(z.strictObject({ comment: z.string(), question: z.string().nullable(), at: z.string() })),
});
export type RatedDownPage = z.infer<typeof ratedDownPageSchema>;

/** A query left without a result, or with results nobody opened: how many readers searched it, and how often. */
const searchMissSchema = z.strictObject({
  query: z.string(),
  readers: z.number(),
  searches: z.number(),
  lastAt: z.string(),
});
export type SearchMiss = z.infer<typeof searchMissSchema>;

/** Everything the insights page shows, for one period; times are ISO strings (UTC). */
export const insightsResponseSchema = z.strictObject({
  days: z.union(insightsPeriods.map((days) => z.literal(days))),
  from: z.string(),
  to: z.string(),
  /** When the docs build being served was made; null when unknown. */
  lastDocsBuildAt: z.string().nullable(),
  questions: z.strictObject({
    total: z.number(),
    answered: z.number(),
    closest: z.number(),
    none: z.number(),
    perDay: z.array(questionDaySchema),
  }),
  unansweredTopics: z.array(unansweredTopicSchema),
  pagesAnswersRestOn: z.array(pageUseSchema),
  pagesRatedDown: z.array(ratedDownPageSchema),
  searches: z.strictObject({
    total: z.number(),
    withoutResult: z.number(),
    withoutClick: z.number(),
    noResult: z.array(searchMissSchema),
    noClick: z.array(searchMissSchema),
  }),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;
