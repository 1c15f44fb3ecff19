/**
 * Fits the Copilot's learned order of the best sections (server/src/search/rerank.ts) on the TUNING questions only:
 * each answerable question's first `rerankCandidates` sections in the engine's order, labelled 1 when the question's
 * set names it as an answer, and a logistic regression over their features. The penalty is the one with the best MRR
 * in 5-fold cross-validation over contiguous blocks of questions (neighbouring questions, often pairs, stay together).
 * Fit again when the features, the engine or the docs change: `npx tsx server/test-support/rerank-fit.ts`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { answerKindsOf } from '../src/search/answer-kind.js';
import type { SearchEngine } from '../src/search/engine.js';
import { type RerankWeights, rerankCandidates, rerankFeatureNames, rerankFeatures } from '../src/search/rerank.js';
import { sectionKey } from '../src/search/section-lookups.js';
import { fitLogistic, predict, type Sample } from './logistic-regression.js';

export const rerankWeightsFile = fileURLToPath(new URL('../src/search/rerank-weights.ts', import.meta.url));

type TuningSet = { inScope: Array<{ question: string; sections: string[] }> };
const tuningSet = (): TuningSet =>
  JSON.parse(readFileSync(new URL('../../bench/questions/tuning.json', import.meta.url), 'utf8')) as TuningSet;

const penalties = [1, 10, 100];
const folds = 5;

/** Each candidate of each answerable tuning question: its question's number, features and label. */
export type Candidate = { question: number; features: Array<number | undefined>; label: 0 | 1 };

export function rerankCandidatesOf(engine: SearchEngine, set: TuningSet = tuningSet()): Candidate[] {
  return set.inScope.flatMap((entry, question) => {
    const terms = engine.queryTerms(entry.question);
    const hits = engine.search(terms, { limit: rerankCandidates });
    const wanted = new Set(entry.sections.map(sectionKey));
    const features = rerankFeatures(terms, hits, engine.meaningWeight, answerKindsOf(entry.question));
    return hits.map((hit, place) => ({
      question,
      features: features[place] ?? [],
      label: wanted.has(sectionKey(hit.url)) ? (1 as const) : (0 as const),
    }));
  });
}

const missingOf = (candidates: readonly Candidate[]) =>
  rerankFeatureNames.map((_, index) => {
    const present = candidates.flatMap((candidate) => {
      const value = candidate.features[index];
      return value === undefined ? [] : [value];
    });
    return present.length ? present.reduce((sum, value) => sum + value, 0) / present.length : 0;
  });

const samplesOf = (candidates: readonly Candidate[], missing: readonly number[]): Sample[] =>
  candidates.map((candidate) => ({
    features: candidate.features.map((value, index) => value ?? missing[index] ?? 0),
    label: candidate.label,
  }));

/** Mean reciprocal rank of the first right section when each question's candidates are ordered by `likelihood`. */
function meanReciprocalRank(candidates: readonly Candidate[], likelihood: readonly number[]): number {
  const byQuestion = new Map<number, Array<{ label: 0 | 1; likelihood: number; place: number }>>();
  candidates.forEach((candidate, index) => {
    const list = byQuestion.get(candidate.question) ?? [];
    list.push({ label: candidate.label, likelihood: likelihood[index] ?? 0, place: list.length });
    byQuestion.set(candidate.question, list);
  });
  let sum = 0;
  for (const list of byQuestion.values()) {
    list.sort((first, second) => second.likelihood - first.likelihood || first.place - second.place);
    const position = list.findIndex((entry) => entry.label === 1);
    if (position >= 0) sum += 1 / (position + 1);
  }
  return sum / Math.max(1, byQuestion.size);
}

export function rerankWeightsOf(candidates: readonly Candidate[], questions: number, fitted: string): RerankWeights {
  const missing = missingOf(candidates);
  const samples = samplesOf(candidates, missing);
  const foldOf = (candidate: Candidate) => Math.floor((candidate.question * folds) / questions);
  let best = { penalty: penalties[0] ?? 1, mrr: -1 };
  for (const penalty of penalties) {
    const likelihood = new Array<number>(candidates.length).fill(0);
    for (let fold = 0; fold < folds; fold += 1) {
      const model = fitLogistic(
        samples.filter((_, index) => foldOf(candidates[index] as Candidate) !== fold),
        penalty,
      );
      samples.forEach((sample, index) => {
        if (foldOf(candidates[index] as Candidate) === fold) likelihood[index] = predict(model, sample.features);
      });
    }
    const mrr = meanReciprocalRank(candidates, likelihood);
    if (mrr > best.mrr) best = { penalty, mrr };
  }
  const model = fitLogistic(samples, best.penalty);
  return { fitted, features: [...rerankFeatureNames], missing, ...model, penalty: best.penalty };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { createSearchEngine } = await import('../src/search/engine.js');
  const { readDocSections } = await import('../src/search/sections.js');
  const { builtSiteDirectory } = await import('./recorded-ranking.js');
  const engine = createSearchEngine(readDocSections(builtSiteDirectory));
  const set = tuningSet();
  const weights = rerankWeightsOf(
    rerankCandidatesOf(engine, set),
    set.inScope.length,
    new Date().toISOString().slice(0, 10),
  );
  writeFileSync(
    rerankWeightsFile,
    [
      '// Written by server/test-support/rerank-fit.ts from the tuning questions alone; fit again, never edit.',
      `export const fittedRerank = ${JSON.stringify(weights)};`,
      '',
    ].join('\n'),
  );
  execFileSync('npx', ['biome', 'format', '--write', rerankWeightsFile], { stdio: 'inherit' });
  console.log('Fitted the order of the best sections on the tuning questions:', weights);
}
