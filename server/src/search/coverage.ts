import type { AnswerConfidence } from '@acme/contract';
import { answerKindsOf } from './answer-kind.js';
import type { SearchEngine, SearchHit } from './engine.js';
import { withPolarityOf } from './polarity.js';
import { coverageShare, type QueryTerm } from './query.js';
import { rerank, rerankCandidates, rerankWeights } from './rerank.js';

/** Why a question was judged answered, close or not covered. */
export type CoverageEvidence = {
  /** How sure the docs answer it: `answered`, only `closest`, or `none`. */
  confidence: AnswerConfidence;
  /** The handbook answers it (`confidence` is `answered`). */
  covered: boolean;
  /** Share of the question's weighted meaning that the best section holds. */
  best: number;
  /** The same share over the best three sections together (a question may need two). */
  together: number;
  /** Names in the question that no section holds and no dictionary knows (`kafka`): a sign it is about other things. */
  foreignNames: string[];
};

/**
 * The thresholds, chosen by a grid over the tuning questions (in scope and out of scope together), never on the
 * held-out ones: a question is answered when no name in it is foreign to the handbook and the best sections hold
 * enough of its meaning; the best section is the closest the handbook comes when it holds less, but still some.
 */
export const coverageThresholds = {
  best: 0.3,
  together: 0.55,
  /** With a foreign name in the question, the best section must hold almost all the rest of it. */
  withForeignName: 0.85,
  /** Below what answers it, the best section is still the closest the handbook comes when it holds this much. */
  closest: 0.2,
  /** ... or this much, with a foreign name in the question. */
  closestWithForeignName: 0.4,
  /**
   * A best section this far from the question in meaning (cosine in the handbook's latent space) that holds less than
   * `farBest` of it shares words with the question rather than its subject: the closest the handbook comes, no more.
   */
  far: 0.4,
  farBest: 0.5,
};

/** The best section shares the question's words but not its meaning (see `coverageThresholds.far`). */
const farInMeaning = (hit: SearchHit | undefined, best: number) =>
  hit?.nearness !== undefined && hit.nearness < coverageThresholds.far && best < coverageThresholds.farBest;

/** Whether the handbook answers the question, judged on the evidence of the ranked sections. */
export function judgeCoverage(
  terms: readonly QueryTerm[],
  hits: readonly SearchHit[],
  weightOf: (term: QueryTerm) => number,
): CoverageEvidence {
  const top = hits.slice(0, 3);
  const matchedAnywhere = new Set(top.flatMap((hit) => [...hit.matchedQueryTerms]));
  const foreignNames = terms.filter((term) => term.foreign && !matchedAnywhere.has(term.term)).map((term) => term.term);
  const best = hits[0] ? coverageShare(terms, hits[0].matchedQueryTerms, weightOf) : 0;
  const together = coverageShare(terms, matchedAnywhere, weightOf);
  const answers =
    (foreignNames.length
      ? best >= coverageThresholds.withForeignName
      : best >= coverageThresholds.best && together >= coverageThresholds.together) && !farInMeaning(hits[0], best);
  const closeEnough =
    best >= (foreignNames.length ? coverageThresholds.closestWithForeignName : coverageThresholds.closest);
  const confidence: AnswerConfidence =
    hits.length === 0 ? 'none' : answers ? 'answered' : closeEnough ? 'closest' : 'none';
  return { confidence, covered: confidence === 'answered', best, together, foreignNames };
}

const rank: Record<AnswerConfidence, number> = { none: 0, closest: 1, answered: 2 };

/**
 * What the Copilot and the search box get for a question: the ranked sections and the verdict on coverage. `asked`:
 * the words that say what the reader asks now (a follow-up's own, when `question` holds the one before it as well).
 */
export type Retrieval = {
  question: string;
  asked: string;
  hits: SearchHit[];
  terms: QueryTerm[];
  coverage: CoverageEvidence;
};

/**
 * Searches the docs for a question, puts the engine's best sections in the Copilot's learned order (rerank.ts) and
 * judges whether they answer it. `alsoJudgeBy` is a part of the question that may be judged on its own (what the
 * reader typed, apart from the text of a screenshot): either judgement suffices.
 */
export function retrieve(
  engine: SearchEngine,
  question: string,
  options: {
    limit?: number;
    currentPage?: string | undefined;
    alsoJudgeBy?: string | undefined;
    /**
     * What the reader asks now, when `question` is a follow-up searched with the question before it: the kind of answer
     * wanted ("how long until they're gone?": a duration) is this one's, not the earlier question's.
     */
    asked?: string | undefined;
  } = {},
): Retrieval {
  const asked = options.asked ?? question;
  const terms = engine.queryTerms(question);
  const limit = options.limit ?? 8;
  const candidates = engine.search(terms, {
    limit: Math.max(limit, rerankCandidates),
    currentPage: options.currentPage,
  });
  const hits = withPolarityOf(
    question,
    rerank(terms, candidates, engine.meaningWeight, rerankWeights, { kinds: answerKindsOf(asked) }).slice(0, limit),
  );
  // The rule is judged on the engine's own order, the one its thresholds were chosen on; the learned order is fitted
  // on answerable questions alone and says nothing of whether the handbook answers one.
  const evidence = withPolarityOf(question, candidates.slice(0, limit));
  const whole = judgeCoverage(terms, evidence, engine.meaningWeight);
  if (whole.covered || options.alsoJudgeBy === undefined) return { question, asked, hits, terms, coverage: whole };
  const typed = judgeCoverage(engine.queryTerms(options.alsoJudgeBy), evidence, engine.meaningWeight);
  return { question, asked, hits, terms, coverage: rank[typed.confidence] > rank[whole.confidence] ? typed : whole };
}
