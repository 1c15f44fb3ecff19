/**
 * The engine's ranking of the tuning questions, recorded once and compared by engine-ranking.test.ts: a change to how
 * the index is built or queried must keep the same top sections. Record again only when the ranking is meant to change
 * (new weights, a new normaliser, new docs): `npx tsx server/test-support/recorded-ranking.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SearchEngine } from '../src/search/engine.js';
import type { QueryTerm } from '../src/search/query.js';

export const recordedRankingFile = fileURLToPath(new URL('./fixtures/recorded-ranking.json', import.meta.url));
export const builtSiteDirectory = fileURLToPath(new URL('../../site/build', import.meta.url));

/** One question as recorded: its terms (so that a change of the query reader alone does not move it) and top three. */
export type RecordedQuestion = {
  question: string;
  terms: QueryTerm[];
  /** As the Copilot asks: the whole question, no prefix on the last word. */
  copilotTop: string[];
  /** As the search box asks: the last word may be unfinished. */
  searchBoxTop: string[];
};

/** The terms as the search box reads them: the last of the question's own is the word still being typed. */
const asTyped = (terms: readonly QueryTerm[]): QueryTerm[] => {
  const last = terms.filter((term) => !term.expansion).at(-1);
  return terms.map((term) => (term === last ? { ...term, unfinished: true } : term));
};

export const topSections = (engine: SearchEngine, terms: readonly QueryTerm[], asYouType: boolean) =>
  engine
    .search(asYouType ? asTyped(terms) : terms, { limit: 8, asYouType })
    .slice(0, 3)
    .map((hit) => hit.url);

export function recordRanking(engine: SearchEngine, questions: readonly string[]): RecordedQuestion[] {
  return questions.map((question) => {
    const terms = engine.queryTerms(question);
    return {
      question,
      terms,
      copilotTop: topSections(engine, terms, false),
      searchBoxTop: topSections(engine, terms, true),
    };
  });
}

export const readRecordedRanking = () => JSON.parse(readFileSync(recordedRankingFile, 'utf8')) as RecordedQuestion[];

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { createSearchEngine } = await import('../src/search/engine.js');
  const { readDocSections } = await import('../src/search/sections.js');
  type Set = { inScope: Array<{ question: string }>; outOfScope: Array<{ question: string }> };
  const tuning = JSON.parse(readFileSync(new URL('../../bench/questions/tuning.json', import.meta.url), 'utf8')) as Set;
  const questions = [...tuning.inScope, ...tuning.outOfScope].map((entry) => entry.question);
  const engine = createSearchEngine(readDocSections(builtSiteDirectory));
  writeFileSync(recordedRankingFile, `${JSON.stringify(recordRanking(engine, questions), null, 1)}\n`);
  console.log(`Recorded the top sections of ${questions.length} questions in ${recordedRankingFile}`);
}
