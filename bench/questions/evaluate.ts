/**
 * Scores retrieval, coverage and docs-only answers on a question set. Shared by `npm run bench` and nothing else:
 * tests check behaviour, never these figures.
 */
import { readFileSync } from 'node:fs';
import { composeDocsOnlyAnswer } from '../../server/src/copilot/answer/docs-only-answer.js';
import { retrieve } from '../../server/src/search/coverage.js';
import type { SearchEngine } from '../../server/src/search/engine.js';
import { pageKey, parseDocUrl } from '../../server/src/search/urls.js';

export type InScopeQuestion = {
  question: string;
  /** Sections that answer it, best first; any of them counts. */
  sections: string[];
  /** For a question that needs two pages: a section of the second one. */
  secondSection?: string;
  /** Short strings from the docs, one of which a good answer contains. */
  facts: string[];
  style: string;
};
export type QuestionSet = {
  inScope: InScopeQuestion[];
  outOfScope: Array<{ question: string; why: string }>;
};

export const questionSet = (name: 'tuning' | 'held-out'): QuestionSet =>
  JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as QuestionSet;

const sectionKey = (url: string) => {
  const { path, anchor } = parseDocUrl(url);
  return `${pageKey(path)}#${anchor ?? ''}`;
};
const pageOf = (url: string) => pageKey(parseDocUrl(url).path);
const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[`*\\]/g, '')
    .replace(/\s+/g, ' ');

export type RankingFigures = { recallAt1: number; recallAt3: number; pageRecallAt3: number; mrr: number };

/** Recall and MRR of one ranking of URLs per question (sections, or pages for rankers that only know pages). */
export function scoreRankings(questions: readonly InScopeQuestion[], rank: (question: string) => string[]) {
  let atOne = 0;
  let atThree = 0;
  let pagesAtThree = 0;
  let reciprocal = 0;
  for (const entry of questions) {
    const ranked = rank(entry.question);
    const wanted = new Set(entry.sections.map(sectionKey));
    const wantedPages = new Set(entry.sections.map(pageOf));
    const position = ranked.findIndex((url) => wanted.has(sectionKey(url)));
    if (position === 0) atOne += 1;
    if (position >= 0 && position < 3) atThree += 1;
    if (position >= 0) reciprocal += 1 / (position + 1);
    if (ranked.slice(0, 3).some((url) => wantedPages.has(pageOf(url)))) pagesAtThree += 1;
  }
  const count = Math.max(1, questions.length);
  return {
    recallAt1: atOne / count,
    recallAt3: atThree / count,
    pageRecallAt3: pagesAtThree / count,
    mrr: reciprocal / count,
  } satisfies RankingFigures;
}

/** Everything the bench prints for one set on the Copilot's side. */
export function evaluateCopilot(engine: SearchEngine, set: QuestionSet) {
  const ranking = scoreRankings(set.inScope, (question) =>
    retrieve(engine, question, { limit: 10 }).hits.map((hit) => hit.url),
  );
  let facts = 0;
  let falselyDeclined = 0;
  let twoPagesBoth = 0;
  const twoPageQuestions = set.inScope.filter((entry) => entry.secondSection);
  for (const entry of set.inScope) {
    const retrieval = retrieve(engine, entry.question);
    const answer = composeDocsOnlyAnswer({
      retrieval,
      termWeight: engine.termWeight,
      meaningWeight: engine.meaningWeight,
    });
    if (!answer.covered) falselyDeclined += 1;
    if (entry.facts.some((fact) => normalised(answer.markdown).includes(normalised(fact)))) facts += 1;
    if (entry.secondSection) {
      const pages = new Set(retrieval.hits.slice(0, 3).map((hit) => pageOf(hit.url)));
      if (pages.has(pageOf(entry.sections[0] ?? '')) && pages.has(pageOf(entry.secondSection))) twoPagesBoth += 1;
    }
  }
  const declined = set.outOfScope.filter((entry) => !retrieve(engine, entry.question).coverage.covered).length;
  return {
    ...ranking,
    factRate: facts / Math.max(1, set.inScope.length),
    outOfScopeDeclined: declined / Math.max(1, set.outOfScope.length),
    falseNotCovered: falselyDeclined / Math.max(1, set.inScope.length),
    twoPagesBoth: twoPageQuestions.length ? twoPagesBoth / twoPageQuestions.length : Number.NaN,
    twoPageQuestions: twoPageQuestions.length,
  };
}
