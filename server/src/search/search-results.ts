import type { SearchCorrection, SearchResponse } from '@acme/contract';
import { queryWords, termsOfWord } from './analyze.js';
import type { SearchEngine } from './engine.js';
import { around, highlight } from './highlight.js';
import { bestSentence } from './passages.js';
import type { QueryTerm } from './query.js';
import { searchBox } from './rerank.js';

/** Words listed as missing at most: a pasted paragraph would list too many to read. */
const mostMissing = 5;

/**
 * The search box's results for what is typed, as GET /api/search sends them: each listed section (searchBox) with its
 * title and best sentence, the matched words highlighted, and the words typed that no section holds. The benches
 * time this, a keystroke's whole work.
 */
export function searchResults(
  engine: SearchEngine,
  typed: string,
  options: { limit: number; pathPrefix?: string | undefined },
): Pick<SearchResponse, 'results' | 'missing' | 'corrected'> {
  // The query is read once: the results and the words they miss come from the same terms.
  const terms = engine.queryTerms(typed, { asYouType: true });
  const hits = searchBox(engine, typed, options, terms);
  const results = hits.map((hit) => ({
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
  return { results, missing: missingWords(engine, typed, terms), corrected: correctedWords(terms) };
}

/** The typos the search read as the handbook's words, in the order typed (once each: one term per word read). */
export function correctedWords(queryTerms: readonly QueryTerm[]): SearchCorrection[] {
  return queryTerms.flatMap((term) => (term.corrected ? [term.corrected] : []));
}

/**
 * The words typed (as typed, folded) that no section of the handbook holds: a word the search corrected (`onbording`)
 * is not missing, nor an everyday word, a number or the reader's own name, which never count against a section either.
 */
export function missingWords(
  engine: SearchEngine,
  typed: string,
  queryTerms: readonly QueryTerm[] = engine.queryTerms(typed),
): string[] {
  const terms = new Map(queryTerms.map((term) => [term.term, term]));
  const missing = new Set<string>();
  for (const word of queryWords(typed)) {
    const asked = termsOfWord(word)
      .flatMap((term) => terms.get(term) ?? [])
      .filter((term) => !term.expansion);
    if (asked.length === 0 || asked.some((term) => term.optional || engine.knows(term.term))) continue;
    missing.add(word);
    if (missing.size === mostMissing) break;
  }
  return [...missing];
}
