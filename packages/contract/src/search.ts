import { z } from 'zod';

/** The search API's shapes and limits, shared by the server and the site. */

/** Longest query the search box sends; a question pasted whole still fits. */
export const maxSearchQueryCharacters = 500;
/** Hits the navbar box shows (spec: 8); the results page asks for more. */
export const searchBoxHits = 8;
export const maxSearchHits = 50;

/** A piece of displayed text; `match` marks the words that matched the query. */
export const textPieceSchema = z.strictObject({ text: z.string(), match: z.boolean() });
export type TextPiece = z.infer<typeof textPieceSchema>;

export const searchResultSchema = z.strictObject({
  /** The exact section: page URL with `#anchor`, or the page URL for its intro. */
  url: z.string(),
  pageTitle: z.string(),
  heading: z.string().nullable(),
  /** Where the page sits in the sidebar, for telling same-named sections apart. */
  breadcrumbs: z.array(z.string()),
  title: z.array(textPieceSchema),
  snippet: z.array(textPieceSchema),
});
export type SearchResultDto = z.infer<typeof searchResultSchema>;

/** A word typed that the handbook never writes, and the handbook's word the search read it as. */
export const searchCorrectionSchema = z.strictObject({ typed: z.string(), word: z.string() });
export type SearchCorrection = z.infer<typeof searchCorrectionSchema>;

/**
 * GET /api/search's answer. `missing`: the words typed that no page of the handbook holds, as a search engine says
 * "Missing: terraform" (everyday words, numbers and the reader's own names are never listed). `corrected`: the typos
 * it read as the handbook's words (`onbording` as `onboarding`), for "Showing results for onboarding".
 */
export const searchResponseSchema = z.strictObject({
  query: z.string(),
  results: z.array(searchResultSchema),
  missing: z.array(z.string()),
  corrected: z.array(searchCorrectionSchema),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
