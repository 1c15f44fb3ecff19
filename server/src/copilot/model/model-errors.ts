import { ApiError, type ApiErrorCode, type HandbookSearchPart } from '@acme/contract';
import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';
import { ResponseTooLarge } from './provider-bounds.js';

/** A model run that failed: the registry's code and words, the provider's own error kept as its cause for the log. */
export const modelFailure = (code: ApiErrorCode, cause?: unknown) =>
  new ApiError(code, undefined, undefined, { cause });

/**
 * A model run that ended without a word of answer: the provider was reached and answered, but wrote nothing (it only
 * searched again in its last step, or sent nothing but its verdict). `searches` are the searches it made.
 */
export class NoAnswerWritten extends Error {
  constructor(readonly searches: readonly HandbookSearchPart[]) {
    super('The model wrote no answer');
    this.name = 'NoAnswerWritten';
  }
}

const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ETIMEDOUT']);

/** The error and the causes under it, outermost first (a few levels: SDK error, fetch error, socket error). */
function* causeChain(error: unknown): Generator<object> {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

const causeCode = (error: unknown) =>
  [...causeChain(error)].map((link) => (link as { code?: unknown }).code).find((code) => typeof code === 'string') as
    | string
    | undefined;

const isTimeout = (error: unknown) => [...causeChain(error)].some((link) => (link as Error).name === 'TimeoutError');

// The SDK gives a response cut at its byte cap as an HTTP 200 that failed, which alone would read as a broken stream.
const isTooLarge = (error: unknown) => [...causeChain(error)].some((link) => link instanceof ResponseTooLarge);

/** Sorts whatever the AI SDK or the network threw into one of a few registry codes Dev Copilot reports. */
export function classifyModelError(error: unknown): ApiErrorCode {
  if (error instanceof ApiError) return error.code;
  if (error instanceof NoAnswerWritten) return 'model_bad_response:ask';
  if (RetryError.isInstance(error)) return classifyModelError(error.lastError);
  if (isTimeout(error)) return 'model_timeout:ask';
  if (isTooLarge(error)) return 'model_bad_response:ask';
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 401 || status === 403) return 'model_refused_key:ask';
    if (status === 429) return 'model_busy:ask';
    // The provider said yes, then its stream broke off (connection dropped, body cut).
    if (status !== undefined && status >= 200 && status < 300) return 'model_unreachable:ask';
    // Which status it was goes to the log with the reason; a reader can do nothing with it.
    if (status !== undefined) return 'model_error:ask';
  }
  if (
    connectionCodes.has(causeCode(error) ?? '') ||
    (APICallError.isInstance(error) && error.statusCode === undefined)
  ) {
    return 'model_unreachable:ask';
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  ) {
    return 'model_bad_response:ask';
  }
  return 'model_error:ask';
}

/** The underlying reason of a failure, for the log: one line, no stack. */
export function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = cause instanceof Error ? (cause.message.split('\n')[0] ?? cause.name) : String(cause);
  const status = [...causeChain(error)].find((link) => APICallError.isInstance(link)) as APICallError | undefined;
  return status?.statusCode === undefined ? reason : `HTTP ${status.statusCode}: ${reason}`;
}
