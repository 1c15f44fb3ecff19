import { ApiError, type ApiErrorCode, errorDetails } from '@acme/contract';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { readerKeyOf } from '../auth/reader-identity.js';

/**
 * Registers @fastify/rate-limit for every route of one plugin, together: at most `perMinute` requests a minute per
 * signed-in reader (keyed on their subject, as their threads are), counted under `scope`. Register it after the
 * gate's hook, so strangers never reach it; a refusal is an ApiError with `code` that says when to try again. `store` counts across instances (openLimits); without it,
 * this instance counts alone.
 */
export function registerReaderRateLimit(
  app: FastifyInstance,
  {
    scope,
    code,
    what,
    perMinute,
    store,
  }: {
    scope: string;
    code: ApiErrorCode;
    what: 'questions' | 'searches' | 'new chats';
    perMinute: number;
    store?: FastifyRateLimitStoreCtor | undefined;
  },
) {
  return app.register(rateLimit, {
    global: true,
    ...(store && { store }),
    max: perMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) =>
      request.access.state === 'signed-in'
        ? `${scope}:user:${readerKeyOf(request.access.session)}`
        : `${scope}:ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new ApiError(code, errorDetails.tooManyAMinute(what, context.max, Math.ceil(context.ttl / 1000))),
  });
}
