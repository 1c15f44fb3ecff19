import { z } from 'zod';
import { type ErrorDetail, errorDetails } from './error-details.js';
import { maxThreadsPerReader } from './limits.js';

/**
 * Every error an API of the handbook answers with, as `{ error: { code, message } }`: the code says what kind of
 * refusal it is (and fixes the HTTP status), the message says what the reader or caller can do about it.
 */
export const apiErrors = {
  'bad_request:input': { status: 400, message: 'The request is not valid.' },
  'bad_request:ask': { status: 400, message: 'The question is not valid.' },
  'bad_request:attachment': { status: 400, message: 'The image could not be read. Attach a PNG, JPEG, GIF or WebP.' },
  'bad_request:parent_id': { status: 400, message: 'The message to answer under is not part of this chat.' },
  'bad_request:feedback_role': { status: 400, message: 'Only answers from Dev Copilot can be rated.' },
  'bad_request:path': { status: 400, message: 'The address is not valid.' },
  'bad_request:search': { status: 400, message: 'The search is not valid.' },
  'bad_request:insights': { status: 400, message: 'Choose a period of 7, 30 or 90 days.' },
  'bad_request:token': { status: 400, message: 'The token request is not valid.' },
  'unauthorized:session': { status: 401, message: 'Sign in to read the handbook.' },
  'unauthorized:token': {
    status: 401,
    message:
      "The personal access token is not valid, has expired or was revoked. Make a new one on the handbook's Access tokens page (/access-tokens).",
  },
  'unauthorized:token_missing': {
    status: 401,
    message:
      'No token was sent. Make a personal access token on the handbook\'s Access tokens page (/access-tokens) and send it as the header "Authorization: Bearer <token>".',
  },
  'forbidden:access': { status: 403, message: 'This account is not allowed to read the handbook.' },
  'forbidden:origin': { status: 403, message: 'The request came from another site.' },
  'forbidden:token_scope': {
    status: 403,
    message:
      'This token was granted to an application, which may search the handbook, read its pages and ask Dev Copilot, but not read your conversations.',
  },
  'forbidden:token_read_only': {
    status: 403,
    message:
      'A token only reads: it may search the handbook, read its pages and ask Dev Copilot (a personal token may also read your conversations). Anything else needs the handbook in a browser, signed in.',
  },
  'not_found:thread': { status: 404, message: 'There is no chat with this id.' },
  'not_found:message': { status: 404, message: 'There is no message with this id.' },
  'not_found:insights': { status: 404, message: 'There is no such page.' },
  'not_found:token': { status: 404, message: 'You have no token with this id.' },
  'not_found:answer': { status: 404, message: 'No answer is being written in this chat.' },
  'not_found:route': { status: 404, message: 'Nothing at this address takes this request.' },
  'conflict:thread_status': { status: 409, message: 'The chat is not in a state that allows this.' },
  'conflict:answer_running': {
    status: 409,
    message: 'Dev Copilot is still answering in this chat; wait or press Stop.',
  },
  'conflict:thread_full': {
    status: 409,
    message: 'This chat is full; start a new chat to go on (earlier ones stay in your list).',
  },
  'conflict:thread_limit': { status: 409, message: errorDetails.threadLimit(maxThreadsPerReader) },
  'conflict:token_limit': { status: 409, message: 'You have too many tokens; revoke one you no longer use.' },
  'conflict:token_name': {
    status: 409,
    message: 'You already have a token with this name. Choose another, so the list tells them apart.',
  },
  'rate_limited:ask': { status: 429, message: 'Too many questions; try again in a minute.' },
  'rate_limited:concurrent': { status: 429, message: 'Too many questions at once.' },
  'rate_limited:search': { status: 429, message: 'Too many searches; try again in a minute.' },
  'rate_limited:threads': { status: 429, message: 'Too many new chats; try again in a minute.' },
  'rate_limited:thread_reads': {
    status: 429,
    message: 'Too many of your chats are being opened at once; try again in a moment.',
  },
  'rate_limited:token': {
    status: 429,
    message: 'Too many requests with tokens that are not valid came from this address; try again in a minute.',
  },
  'internal:ask': { status: 500, message: 'Dev Copilot could not answer; try again.' },
  'internal:search': { status: 500, message: 'The search failed; try again.' },
  'internal:insights': { status: 500, message: 'The insights could not be read; try again.' },
  'internal:tokens': { status: 500, message: 'Your tokens could not be read or saved; try again.' },
  'internal:threads': { status: 500, message: 'Your chats could not be read or saved; try again.' },
  'internal:server': { status: 500, message: 'Something went wrong; try again.' },
  'unavailable:database': { status: 503, message: 'The handbook is unavailable for a moment; try again shortly.' },
  'unavailable:search': {
    status: 503,
    message: 'The handbook is being indexed for search; try again in a few seconds.',
  },
  // 503: the question was stopped by a server that is shutting down, and asked again it is answered (Retry-After).
  'cancelled:ask': { status: 503, message: 'The server restarted before the answer was finished. Ask again.' },
  'model_timeout:ask': { status: 504, message: 'The model took too long to answer. Try again.' },
  'model_busy:ask': { status: 503, message: 'The model provider is rate-limiting us. Try again in a minute.' },
  'model_refused_key:ask': {
    status: 502,
    message: 'The model provider refused our API key. Tell the handbook maintainers.',
  },
  // Before the first words (the provider could not be reached) or after them (its stream broke off).
  'model_unreachable:ask': {
    status: 502,
    message: 'The connection to the model provider failed or broke off mid-answer. Try again.',
  },
  'model_bad_response:ask': {
    status: 502,
    message: 'The model provider sent an answer that could not be read. Try again.',
  },
  'model_error:ask': { status: 502, message: 'The model failed to answer. Try again.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof apiErrors;

const apiErrorCodes = Object.keys(apiErrors) as [ApiErrorCode, ...ApiErrorCode[]];

/** The body of every error response. */
export const apiErrorBodySchema = z.strictObject({
  error: z.strictObject({ code: z.enum(apiErrorCodes), message: z.string() }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** The body of a refusal with `code`: the registry's message, or a detail built by `errorDetails` for this request. */
export const errorBody = (code: ApiErrorCode, detail?: ErrorDetail): ApiErrorBody => ({
  error: { code, message: detail ?? apiErrors[code].message },
});

/** A refusal with one of the codes above; the server's API error handler answers with it, the widget shows it. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    /** What exactly is wrong with this request (`errorDetails`), sent instead of the code's message. */
    readonly detail?: ErrorDetail,
    /** When to try again, for a refusal that passes (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
    /** What went wrong underneath, for the log (`cause`); never sent. */
    options?: ErrorOptions,
  ) {
    super(detail ?? apiErrors[code].message, options);
    this.name = 'ApiError';
  }

  get status(): number {
    return apiErrors[this.code].status;
  }
}
