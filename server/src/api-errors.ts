import type { FastifyError, FastifyReply } from 'fastify';

/** The one JSON error shape of every API: `{ error: { code, message } }`, never cached. */
export function sendApiError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.header('cache-control', 'no-store').code(status).send({ error: { code, message } });
}

const requestProblems: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (content-type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; it must be JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

/**
 * Sends Fastify's own refusal of a request (too large, not JSON, wrong content type) in the API's error shape, with
 * a message a person can act on. Returns false for anything that is not such a refusal.
 */
export function sendRequestProblem(
  reply: FastifyReply,
  error: FastifyError,
  code: string,
  /** What the route's callers can do about a body that is too large. */
  tooLargeAdvice?: string,
): boolean {
  if (error.statusCode === undefined || error.statusCode >= 500) return false;
  const message = requestProblems[error.code] ?? error.message;
  const advice = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && tooLargeAdvice ? ` ${tooLargeAdvice}` : '';
  sendApiError(reply, error.statusCode, code, `${message}${advice}`);
  return true;
}
