import { ApiError, type ApiErrorCode, apiErrors, errorBody } from '@acme/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseUnavailable } from './store/unavailable.js';

/** The one JSON error shape of every API: `{ error: { code, message } }`, never cached. */
export function sendApiError(
  reply: FastifyReply,
  code: ApiErrorCode,
  message: string = apiErrors[code].message,
  status: number = apiErrors[code].status,
) {
  return reply.header('cache-control', 'no-store').code(status).send(errorBody(code, message));
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

const requestProblems: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (content-type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; it must be JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

type Issue = { path: PropertyKey[]; message: string };

/** Turns validation issues into one sentence a developer can act on. */
export function describeIssues(issues: readonly Issue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The issues of a request that failed its route's zod schema, as the type provider reports them. */
function validationIssues(error: FastifyError): Issue[] {
  return (error.validation ?? []).map((entry) => ({
    path: entry.instancePath.split('/').filter(Boolean),
    message: entry.message ?? 'is not valid',
  }));
}

export type ApiErrorHandlerOptions = {
  /** The code of a request that fails validation. */
  badRequest: ApiErrorCode;
  /** The code of anything unexpected (logged, never shown). */
  internal: ApiErrorCode;
  /** What callers can do about a body that is too large. */
  tooLargeAdvice?: string;
};

/**
 * The error handler of every API plugin: contract errors as they are, schema and body problems as 4xx with the
 * route's bad-request code, a database out of reach as a 503 to try again, anything else logged and answered with a short
 * 500. The failure itself (its SQL, its parameters) goes to the log only.
 */
export function apiErrorHandler({ badRequest, internal, tooLargeAdvice }: ApiErrorHandlerOptions) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientHungUp(request, error)) return reply.code(400).send();
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendApiError(reply, error.code, error.message);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendApiError(reply, badRequest, describeIssues(validationIssues(error)));
    }
    if (error instanceof z.ZodError) return sendApiError(reply, badRequest, describeIssues(error.issues));
    if (error.statusCode !== undefined && error.statusCode < 500) {
      const message = requestProblems[error.code] ?? error.message;
      const advice = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && tooLargeAdvice ? ` ${tooLargeAdvice}` : '';
      return sendApiError(reply, badRequest, `${message}${advice}`, error.statusCode);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'the database is unavailable');
      return sendDatabaseUnavailable(reply);
    }
    request.log.error({ err: error }, 'API request failed');
    return sendApiError(reply, internal);
  };
}
