import type { ApiErrorCode } from '@acme/contract';
import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';

/** Why a model run failed, in words a reader can act on; the code fixes the HTTP status a JSON caller gets. */
export type ModelFailure = { code: ApiErrorCode; message: string };

/** Thrown into an answer's stream when the provider fails; the route turns it into a 5xx or an `error` event. */
export class ModelRunError extends Error {
  constructor(
    readonly failure: ModelFailure,
    options?: { cause?: unknown },
  ) {
    super(failure.message, options);
    this.name = 'ModelRunError';
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

/** Sorts whatever the AI SDK or the network threw into one of a few failures Dev Copilot reports. */
export function classifyModelError(error: unknown): ModelFailure {
  if (error instanceof ModelRunError) return error.failure;
  if (RetryError.isInstance(error)) return classifyModelError(error.lastError);
  if (isTimeout(error)) {
    return { code: 'model_timeout:ask', message: 'The model took too long to answer. Try again.' };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 401 || status === 403) {
      return {
        code: 'model_refused_key:ask',
        message: 'The model provider refused our API key. Tell the handbook maintainers.',
      };
    }
    if (status === 429) {
      return {
        code: 'model_busy:ask',
        message: 'The model provider is rate-limiting us. Try again in a minute.',
      };
    }
    if (status !== undefined && status >= 200 && status < 300) {
      // The provider said yes, then its stream broke off (connection dropped, body cut).
      return {
        code: 'model_unreachable:ask',
        message: 'The connection to the model provider broke off mid-answer. Try again.',
      };
    }
    if (status !== undefined) {
      return {
        code: 'model_error:ask',
        message: `The model provider failed (HTTP ${status}). Try again.`,
      };
    }
  }
  if (
    connectionCodes.has(causeCode(error) ?? '') ||
    (APICallError.isInstance(error) && error.statusCode === undefined)
  ) {
    return {
      code: 'model_unreachable:ask',
      message: 'The model provider could not be reached. Try again.',
    };
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  ) {
    return {
      code: 'model_bad_response:ask',
      message: 'The model provider sent an answer that could not be read. Try again.',
    };
  }
  return { code: 'model_error:ask', message: 'The model failed to answer. Try again.' };
}

/** The underlying reason of a failure, for the log: one line, no stack. */
export function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? (cause.message.split('\n')[0] ?? cause.name) : String(cause);
}
