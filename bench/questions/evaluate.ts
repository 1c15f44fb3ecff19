/**
 * Scores retrieval, coverage and docs-only answers on a question set. Shared by `npm run bench` and nothing else:
 * tests check behaviour, never these figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { AnswerConfidence } from '@acme/contract';
import { composeDocsOnlyAnswer } from '../../server/src/copilot/answer/docs-only-answer.js';
import { type Retrieval, retrieve } from '../../server/src/search/coverage.js';
import type { SearchEngine } from '../../server/src/search/engine.js';
import { searchBox } from '../../server/src/search/rerank.js';
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

export const questionSet = (name: string): QuestionSet =>
  JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as QuestionSet;

/** Every question set beside this file (tuning, held-out, held-out-2, ...), tuning first; absent ones are skipped. */
export function questionSets(): Array<{ name: string; set: QuestionSet }> {
  const names = readdirSync(new URL('.', import.meta.url))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort((first, second) => (first === 'tuning' ? -1 : second === 'tuning' ? 1 : first.localeCompare(second)));
  return names.map((name) => ({ name, set: questionSet(name) }));
}

export type ConfidenceShares = Record<AnswerConfidence, number>;
const sharesOf = (confidences: readonly AnswerConfidence[]): ConfidenceShares => {
  const count = Math.max(1, confidences.length);
  const share = (level: AnswerConfidence) => confidences.filter((each) => each === level).length / count;
  return { answered: share('answered'), closest: share('closest'), none: share('none') };
};

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

const answerOf = (engine: SearchEngine, question: string, retrieval: Retrieval = retrieve(engine, question)) =>
  composeDocsOnlyAnswer({ retrieval, termWeight: engine.termWeight, meaningWeight: engine.meaningWeight });

/** Everything the bench prints for one set on the Copilot's side. */
export function evaluateCopilot(engine: SearchEngine, set: QuestionSet) {
  const ranking = scoreRankings(set.inScope, (question) =>
    retrieve(engine, question, { limit: 10 }).hits.map((hit) => hit.url),
  );
  let facts = 0;
  let twoPagesBoth = 0;
  const answerable: AnswerConfidence[] = [];
  const twoPageQuestions = set.inScope.filter((entry) => entry.secondSection);
  for (const entry of set.inScope) {
    const retrieval = retrieve(engine, entry.question);
    const answer = answerOf(engine, entry.question, retrieval);
    answerable.push(answer.confidence);
    if (entry.facts.some((fact) => normalised(answer.markdown).includes(normalised(fact)))) facts += 1;
    if (entry.secondSection) {
      const pages = new Set(retrieval.hits.slice(0, 3).map((hit) => pageOf(hit.url)));
      if (pages.has(pageOf(entry.sections[0] ?? '')) && pages.has(pageOf(entry.secondSection))) twoPagesBoth += 1;
    }
  }
  const unanswerable = set.outOfScope.map((entry) => answerOf(engine, entry.question).confidence);
  return {
    ...ranking,
    factRate: facts / Math.max(1, set.inScope.length),
    answerable: sharesOf(answerable),
    unanswerable: sharesOf(unanswerable),
    twoPagesBoth: twoPageQuestions.length ? twoPagesBoth / twoPageQuestions.length : Number.NaN,
    twoPageQuestions: twoPageQuestions.length,
  };
}

const percent = (value: number) => (Number.isNaN(value) ? '  n/a' : `${(value * 100).toFixed(1).padStart(5)}%`);
const figure = (value: number) => value.toFixed(3);
const shares = (levels: ConfidenceShares) =>
  `answered ${percent(levels.answered)}  closest ${percent(levels.closest)}  none ${percent(levels.none)}`;

/** The lines the bench prints for one set: the Copilot's docs-only answers, then the search box. */
export function figureLines(engine: SearchEngine, name: string, set: QuestionSet): string[] {
  const copilot = evaluateCopilot(engine, set);
  const box = scoreRankings(set.inScope, (question) => searchBox(engine, question, { limit: 8 }).map((hit) => hit.url));
  return [
    `  ${name} set: ${set.inScope.length} answerable, ${set.outOfScope.length} unanswerable`,
    `    Copilot     recall@1 ${figure(copilot.recallAt1)}  recall@3 ${figure(copilot.recallAt3)}  page recall@3 ${figure(copilot.pageRecallAt3)}  MRR ${figure(copilot.mrr)}  fact rate ${percent(copilot.factRate)}`,
    `                answerable: ${shares(copilot.answerable)}`,
    `                unanswerable: ${shares(copilot.unanswerable)}`,
    `                two-page questions with both pages in top 3 ${percent(copilot.twoPagesBoth)} of ${copilot.twoPageQuestions}`,
    `    search box  recall@1 ${figure(box.recallAt1)}  recall@3 ${figure(box.recallAt3)}  page recall@3 ${figure(box.pageRecallAt3)}  MRR ${figure(box.mrr)}`,
  ];
}
