import type { FastifyRequest } from 'fastify';
import { readerKeyOf } from '../auth/reader-identity.js';

/**
 * The signed-in reader a Dev Copilot route serves, as the key their threads are owned under: the identity provider's
 * subject, never the e-mail. The gate's hook has already turned away everyone else.
 */
export function readerOf(request: FastifyRequest): string {
  if (request.access.state !== 'signed-in')
    throw new Error('A Dev Copilot route was reached without a signed-in reader');
  return readerKeyOf(request.access.session);
}
