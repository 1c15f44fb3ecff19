/**
 * Retrieval figures on every question set (bench/questions/*.json: tuning, and the held-out ones, never tuned on): the
 * Copilot's ranking, confidence and docs-only answers; the search box; the previous search box's engine (lunr, as
 * docusaurus-search-local ran it) on the same questions as the reference; and latency on the handbook and on a
 * generated handbook ten times larger. Prints figures only; it never fails on a number.
 */
import lunr from 'lunr';
import { siteBuildDirectory } from '../e2e/harness';
import { composeDocsOnlyAnswer } from '../server/src/copilot/answer/docs-only-answer.js';
import { retrieve } from '../server/src/search/coverage.js';
import type { DocSection } from '../server/src/search/doc-page.js';
import { createSearchEngine, type SearchEngine } from '../server/src/search/engine.js';
import { searchResults } from '../server/src/search/search-results.js';
import { readDocSections } from '../server/src/search/sections.js';
import { largerHandbook } from './larger-handbook';
import { figureLines, type QuestionSet, questionSets, scoreRankings } from './questions/evaluate';

const sections = readDocSections(siteBuildDirectory);
const engine = createSearchEngine(sections);
const sets = questionSets();

/** The previous search box: lunr over titles and texts, every word required (as the plugin queried), or any word. */
function lunrRanker(all: readonly DocSection[], requireEvery: boolean) {
  const index = lunr(function build() {
    this.ref('url');
    this.field('title', { boost: 3 });
    this.field('text');
    for (const section of all)
      this.add({ url: section.url, title: section.heading ?? section.pageTitle, text: section.text });
  });
  return (question: string) => {
    // lunr drops its stop words from the index, so a required stop word would match nothing.
    const words = (question.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) =>
      lunr.stopWordFilter(new lunr.Token(word, {})),
    );
    const presence = requireEvery ? lunr.Query.presence.REQUIRED : lunr.Query.presence.OPTIONAL;
    try {
      return index
        .query((query) => {
          for (const word of words) query.term(word, { presence, usePipeline: true });
        })
        .map((result) => result.ref);
    } catch {
      return [];
    }
  };
}

const figure = (value: number) => value.toFixed(3);

function printSet(name: string, set: QuestionSet) {
  console.log(figureLines(engine, name, set).join('\n'));
  const lunrAll = scoreRankings(set.inScope, lunrRanker(sections, true));
  const lunrAny = scoreRankings(set.inScope, lunrRanker(sections, false));
  const emptyForLunr = set.inScope.filter((entry) => lunrRanker(sections, true)(entry.question).length === 0).length;
  console.log(
    `    reference: lunr, every word required (the old box)  recall@3 ${figure(lunrAll.recallAt3)}  page recall@3 ${figure(lunrAll.pageRecallAt3)}  MRR ${figure(lunrAll.mrr)}; nothing at all for ${emptyForLunr} of ${set.inScope.length}`,
  );
  console.log(
    `    reference: lunr, any word                           recall@3 ${figure(lunrAny.recallAt3)}  page recall@3 ${figure(lunrAny.pageRecallAt3)}  MRR ${figure(lunrAny.mrr)}`,
  );
}

const median = (values: number[]) => [...values].sort((first, second) => first - second)[values.length >> 1] ?? 0;
function latency(searchEngine: SearchEngine, questions: readonly string[]) {
  const search: number[] = [];
  const answer: number[] = [];
  for (const question of [...questions, ...questions]) {
    let started = performance.now();
    searchResults(searchEngine, question, { limit: 8 });
    search.push(performance.now() - started);
    started = performance.now();
    const retrieval = retrieve(searchEngine, question);
    composeDocsOnlyAnswer({
      retrieval,
      termWeight: searchEngine.termWeight,
      meaningWeight: searchEngine.meaningWeight,
    });
    answer.push(performance.now() - started);
  }
  return {
    search: median(search),
    answer: median(answer),
    answerP99: [...answer].sort((a, b) => a - b)[Math.floor(answer.length * 0.99)] ?? 0,
  };
}

console.log('Retrieval figures (held-out questions were written before any tuning and never tuned on)');
for (const { name, set } of sets) printSet(name, set);

const questions = sets
  .filter(({ name }) => name !== 'tuning')
  .flatMap(({ set }) => [...set.inScope, ...set.outOfScope])
  .map((entry) => entry.question);
for (const copies of [1, 10]) {
  const handbook = copies === 1 ? sections : largerHandbook(sections, copies);
  const started = performance.now();
  const built = copies === 1 ? engine : createSearchEngine(handbook);
  const buildMs = copies === 1 ? Number.NaN : performance.now() - started;
  const timings = latency(built, questions);
  console.log(
    `  ${copies === 1 ? 'handbook' : '10x handbook'} (${handbook.length} sections)  search p50 ${timings.search.toFixed(2)} ms  askAi docs-only answer p50 ${timings.answer.toFixed(2)} ms, p99 ${timings.answerP99.toFixed(2)} ms${copies === 1 ? '' : `  index built in ${buildMs.toFixed(0)} ms`}`,
  );
}
