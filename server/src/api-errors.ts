import type { FastifyReply } from 'fastify';

/** The one JSON error shape of every API: `{ error: { code, message } }`, never cached. */
export function sendApiError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.header('cache-control', 'no-store').code(status).send({ error: { code, message } });
}
