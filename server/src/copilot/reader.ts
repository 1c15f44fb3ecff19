import type { FastifyRequest } from 'fastify';

/** The signed-in reader a Dev Copilot route serves; the gate's hook has already turned away everyone else. */
export function readerOf(request: FastifyRequest): string {
  if (request.viewer.state !== 'signed-in')
    throw new Error('A Dev Copilot route was reached without a signed-in reader');
  return request.viewer.session.email.toLowerCase();
}
