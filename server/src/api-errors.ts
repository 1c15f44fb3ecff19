import {
  ApiError,
  type ApiErrorCode,
  apiErrors,
  type ErrorDetail,
  errorBody,
  errorDetails,
  type RequestIssue,
} from '@acme/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CompressedBodyRefused } from './request-bodies.js';
import { isDatabaseUnavailable } from './store/unavailable.js';

/** The one JSON error shape of every API: `{ error: { code, message } }`, never cached. */
export function sendApiError(
  reply: FastifyReply,
  code: ApiErrorCode,
  detail?: ErrorDetail,
  status: number = apiErrors[code].status,
) {
  return reply.header('cache-control', 'no-store').code(status).send(errorBody(code, detail));
}

/**
 * The client hung up before its request had arrived whole (Node's "aborted", whose code ECONNRESET would otherwise
 * read as a database connection failure): nobody is left to answer and nothing failed here, so one line at info
 * level, without a stack, says so.
 */
export function clientHungUp(request: FastifyRequest, error: Error): boolean {
  if (!request.raw.readableAborted) return false;
  request.log.info({ reason: error.message }, 'the client hung up before its request arrived whole');
  return true;
}

/** When a reader is told to try again while the database is away: about as long as an outage takes to notice. */
export const databaseRetryAfterSeconds = 5;

/** The 503 of a request the database could not serve: no detail of the failure, a time to try again. */
export function sendDatabaseUnavailable(reply: FastifyReply) {
  reply.header('retry-after', String(databaseRetryAfterSeconds));
  return sendApiError(reply, 'unavailable:database');
}

/** Fastify's refusals of a request body, in the registry's words; any other is answered with the code's message. */
const bodyProblems: Record<string, ErrorDetail> = {
  FST_ERR_CTP_BODY_TOO_LARGE: errorDetails.requestBody.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errorDetails.requestBody.notJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: errorDetails.requestBody.empty,
  FST_ERR_CTP_INVALID_JSON_BODY: errorDetails.requestBody.invalidJson,
};

/** What a caller is told of a body refused before its route read it; `tooLarge` when the API says more of that. */
function bodyProblemOf(error: FastifyError, tooLarge: ErrorDetail | undefined): ErrorDetail | undefined {
  if (error instanceof CompressedBodyRefused) return error.detail;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && tooLarge) return tooLarge;
  return bodyProblems[error.code];
}

/** The issues of a request that failed its route's zod schema, as the type provider reports them. */
function validationIssues(error: FastifyError): RequestIssue[] {
  return (error.validation ?? []).map((entry) => ({
    path: entry.instancePath.split('/').filter(Boolean),
    message: entry.message,
  }));
}

export type ApiErrorHandlerOptions = {
  /** The code of a request that fails validation. */
  badRequest: ApiErrorCode;
  /** The code of anything unexpected (logged, never shown). */
  internal: ApiErrorCode;
  /** What callers are told of a body that is too large, when the API says more than `requestBody.tooLarge`. */
  tooLarge?: ErrorDetail;
};

/**
 * The error handler of every API plugin: contract errors as they are, schema and body problems as 4xx with the
 * route's bad-request code, a database out of reach as a 503 to try again, anything else logged and answered with a short
 * 500. The failure itself (its SQL, its parameters) goes to the log only.
 */
export function apiErrorHandler({ badRequest, internal, tooLarge }: ApiErrorHandlerOptions) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientHungUp(request, error)) return reply.code(400).send();
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendApiError(reply, error.code, error.detail);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendApiError(reply, badRequest, errorDetails.invalidRequest(validationIssues(error)));
    }
    if (error instanceof z.ZodError) return sendApiError(reply, badRequest, errorDetails.invalidRequest(error.issues));
    if (error.statusCode !== undefined && error.statusCode < 500) {
      return sendApiError(reply, badRequest, bodyProblemOf(error, tooLarge), error.statusCode);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'the database is unavailable');
      return sendDatabaseUnavailable(reply);
    }
    request.log.error({ err: error }, 'API request failed');
    return sendApiError(reply, internal);
  };
}
