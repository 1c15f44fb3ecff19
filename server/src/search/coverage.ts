import type { SearchEngine, SearchHit } from './engine.js';
import { coverageShare, type QueryTerm } from './query.js';

/** Why a question was judged covered or not: printed by the bench, logged with each answer. */
export type CoverageEvidence = {
  covered: boolean;
  /** Share of the question's weighted meaning that the best section holds. */
  best: number;
  /** The same share over the best three sections together (a question may need two). */
  together: number;
  /** Names in the question that no section holds and no dictionary knows (`kafka`): a sign it is about other things. */
  foreignNames: string[];
};

/**
 * The thresholds, chosen on the tuning questions (in scope and out of scope together) by `npm run bench`'s
 * calibration, never on the held-out ones: a question is covered when no name in it is foreign to the handbook and
 * the best sections hold enough of its meaning.
 */
export const coverageThresholds = {
  best: 0.25,
  together: 0.3,
  /** With a foreign name in the question, the best section must hold almost all the rest of it. */
  withForeignName: 0.85,
};

/** Whether the handbook answers the question, judged on the evidence of the ranked sections. */
export function judgeCoverage(
  terms: readonly QueryTerm[],
  hits: readonly SearchHit[],
  weightOf: (term: QueryTerm) => number,
): CoverageEvidence {
  const top = hits.slice(0, 3);
  const matchedAnywhere = new Set(top.flatMap((hit) => [...hit.matchedQueryTerms]));
  const foreignNames = terms.filter((term) => term.foreign && !matchedAnywhere.has(term.term)).map((term) => term.term);
  const best = hits[0]?.coverage ?? 0;
  const together = coverageShare(terms, matchedAnywhere, weightOf);
  const enough = foreignNames.length
    ? best >= coverageThresholds.withForeignName
    : best >= coverageThresholds.best && together >= coverageThresholds.together;
  return { covered: hits.length > 0 && enough, best, together, foreignNames };
}

/** What the Copilot and the search box get for a question: the ranked sections and the verdict on coverage. */
export type Retrieval = { hits: SearchHit[]; terms: QueryTerm[]; coverage: CoverageEvidence };

/** Searches the docs for a question and judges whether they answer it. */
export function retrieve(
  engine: SearchEngine,
  question: string,
  options: { limit?: number; currentPage?: string | undefined } = {},
): Retrieval {
  const hits = engine.search(question, { limit: options.limit ?? 8, currentPage: options.currentPage });
  const terms = engine.queryTerms(question);
  return { hits, terms, coverage: judgeCoverage(terms, hits, engine.meaningWeight) };
}
