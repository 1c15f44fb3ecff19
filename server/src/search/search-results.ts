import type { SearchResponse } from '@acme/contract';
import type { SearchEngine } from './engine.js';
import { around, highlight } from './highlight.js';
import { bestSentence } from './passages.js';
import { searchBox } from './rerank.js';

/**
 * The search box's results for what is typed, as GET /api/search sends them: each listed section (searchBox) with its
 * title and best sentence, the matched words highlighted. The benches time this, a keystroke's whole work.
 */
export function searchResults(
  engine: SearchEngine,
  typed: string,
  options: { limit: number; pathPrefix?: string | undefined },
): SearchResponse['results'] {
  return searchBox(engine, typed, options).map((hit) => ({
    url: hit.url,
    pageTitle: hit.pageTitle,
    heading: hit.heading ?? null,
    breadcrumbs: hit.breadcrumbs,
    title: highlight(hit.heading ?? hit.pageTitle, hit.matchedTerms),
    snippet: highlight(
      around(bestSentence(hit, hit.matchedTerms, engine.termWeight), hit.matchedTerms),
      hit.matchedTerms,
    ),
  }));
}
