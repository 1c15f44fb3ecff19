import type { AnswerConfidence } from '@acme/contract';
import type { Retrieval } from '../../search/coverage.js';
import type { ModelPiece } from '../model/model-answer.js';
import { NoAnswerWritten } from '../model/model-errors.js';

/** The line a docs-only answer opens with when it stands in for a model that failed before writing a word. */
export const modelUnavailableNotice =
  'The AI model could not be reached just now, so this answer comes from the docs search alone.';

/** ... when the model was reached but sent no words of answer. */
export const modelSilentNotice =
  'The AI model sent no answer this time, so this answer comes from the docs search alone.';

/** ... when it searched the handbook, then wrote nothing: the docs answer from what it was given and found. */
export const searchedButSilentNotice =
  'The AI model searched the handbook but wrote no answer, so this answer is built from the sections it was given and found.';

/** The line for a model that wrote nothing, by why it wrote nothing. */
export function noticeFor(error: unknown): string {
  if (!(error instanceof NoAnswerWritten)) return modelUnavailableNotice;
  return error.searches.length ? searchedButSilentNotice : modelSilentNotice;
}

const rank: Record<AnswerConfidence, number> = { none: 0, closest: 1, answered: 2 };

/**
 * The retrieval a docs answer standing in for a silent model rests on: the question's own, unless the model's search
 * found sections that answer better. Those were found with the model's words, not the reader's, and no model confirmed
 * they answer the question, so they are offered as no more than the closest the handbook comes.
 */
export function retrievalAfterSilentModel(question: AnswerConfidence, searched: Retrieval | undefined) {
  if (!searched || rank[searched.coverage.confidence] <= rank[question]) return undefined;
  const confidence: AnswerConfidence = 'closest';
  return { ...searched, coverage: { ...searched.coverage, confidence, covered: false } };
}

/**
 * The model's answer once its first words (not only blanks) have come: a failure before them throws here, while the
 * docs can still answer instead; a failure after them stays in the stream returned.
 */
export async function afterFirstWords(pieces: AsyncIterable<ModelPiece>): Promise<AsyncIterable<ModelPiece>> {
  const iterator = pieces[Symbol.asyncIterator]();
  const held: ModelPiece[] = [];
  let next = await iterator.next();
  while (!next.done) {
    held.push(next.value);
    if (typeof next.value === 'string' && next.value.trim()) break;
    next = await iterator.next();
  }
  const ended = next.done === true;
  return (async function* () {
    yield* held;
    if (!ended) yield* { [Symbol.asyncIterator]: () => iterator };
  })();
}
