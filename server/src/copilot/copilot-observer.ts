import type { AnswerMode, ApiErrorCode } from '@acme/contract';

/**
 * What Dev Copilot tells the server's metrics about each question, asked statelessly or in a turn. Every method is
 * cheap and never throws; without an observer nothing is counted.
 */
export type CopilotObserver = {
  /**
   * A whole answer was given: whether the docs covered the question, seconds from asking to the last word, and how it
   * was made (docs-only on a model server when the model failed before writing a word).
   */
  answered(covered: boolean, seconds: number, mode: AnswerMode): void;
  /** The reader stopped the answer, or the caller went away before it was written. */
  cancelled(): void;
  /** No answer: the code says why (`model_timeout:ask`, `model_busy:ask`, ...). */
  failed(code: ApiErrorCode): void;
  /** The model failed before writing a word, and the docs answered instead (that answer is counted by `answered`). */
  modelFellBack(code: ApiErrorCode): void;
};
