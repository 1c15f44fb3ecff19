import { errorDetails, type GuardedFeature } from '@acme/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from '../api-errors.js';
import { isAllowed } from './request-access.js';

const readOnlyMethods = new Set(['GET', 'HEAD']);

/**
 * An onRequest hook for a JSON API: only allowed sessions get through (401 signed out, 403 not allowed), and a
 * request that changes something must come from our own pages (403 for any other Origin) or carry a personal token.
 */
export function requireReader(options: { publicOrigin: string; feature: GuardedFeature }) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.access;
    if (access.state !== 'signed-in') {
      return sendApiError(reply, 'unauthorized:session', errorDetails.guard.signIn(options.feature));
    }
    if (!isAllowed(access)) {
      return sendApiError(reply, 'forbidden:access', errorDetails.guard.notAllowed(options.feature));
    }
    // A personal token comes in a header no other site can make a browser send, so it needs no Origin.
    const fromOurPages = access.personalTokenId !== undefined || request.headers.origin === options.publicOrigin;
    if (!readOnlyMethods.has(request.method) && !fromOurPages) {
      return sendApiError(reply, 'forbidden:origin', errorDetails.guard.fromOurPages(options.feature));
    }
  };
}
