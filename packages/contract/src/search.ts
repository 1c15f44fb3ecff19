/** The search API's shapes and limits, shared by the server and the site (no runtime dependencies). */

/** Longest query the search box sends; a question pasted whole still fits. */
export const maxSearchQueryCharacters = 500;
/** Hits the navbar box shows (spec: 8); the results page asks for more. */
export const searchBoxHits = 8;
export const maxSearchHits = 50;

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
