import { z } from 'zod';

/** Longest query the search box sends; a question pasted whole still fits. */
export const maxSearchQueryCharacters = 500;
/** Hits the navbar box shows (spec: 8); the results page asks for more. */
export const searchBoxHits = 8;
export const maxSearchHits = 50;

/** GET /api/search?q=&limit=&ctx=: the question, how many hits, and an optional path to search under. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'q is the text to search for' })
    .max(maxSearchQueryCharacters, `q is at most ${maxSearchQueryCharacters} characters`)
    .default(''),
  limit: z.coerce.number().int().min(1).max(maxSearchHits).default(searchBoxHits),
  /** A path prefix such as `/Workshops/`: search only the pages under it. */
  ctx: z
    .string()
    .max(200)
    .regex(/^\/[^?#]*$/, 'ctx is a path on this site, such as /Workshops/')
    .optional(),
});

/** A piece of displayed text; `match` marks the words that matched the query. */
export type TextPiece = { text: string; match: boolean };

export type SearchResultDto = {
  /** The exact section: page URL with `#anchor`, or the page URL for its intro. */
  url: string;
  pageTitle: string;
  heading: string | null;
  /** Where the page sits in the sidebar, for telling same-named sections apart. */
  breadcrumbs: string[];
  title: TextPiece[];
  snippet: TextPiece[];
};

export type SearchResponse = { query: string; results: SearchResultDto[] };
