import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per request instead of Fastify's two (received, completed), each with a serialised request: method, path
 * without its query (a sign-in callback's query carries a one-time code), status and milliseconds. Written at info
 * level from the request's logger, so LOG_LEVEL=warn turns it off; failures keep Fastify's error line.
 */
export class AccessLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    const queryStart = request.url.indexOf('?');
    request.log.info({
      method: request.method,
      path: queryStart === -1 ? request.url : request.url.slice(0, queryStart),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    });
  }
}
