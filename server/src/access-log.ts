import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Told of every finished request: method, path without query, status and milliseconds (the server's metrics). */
export type RequestObserver = (method: string, path: string, status: number, ms: number) => void;

/**
 * One line per request instead of Fastify's two (received, completed), each with a serialised request: method, path
 * without its query (a sign-in callback's query carries a one-time code), status and milliseconds. Written at info
 * level from the request's logger, so LOG_LEVEL=warn turns it off; failures keep Fastify's error line. The metrics
 * are taken here too, where the path is already cut, rather than in a hook of their own on every request.
 */
export class AccessLog extends LogController {
  constructor(private readonly observe?: RequestObserver) {
    super();
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const queryStart = request.url.indexOf('?');
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    this.observe?.(request.method, path, reply.statusCode, reply.elapsedTime);
    if (error) return super.requestCompleted(error, request, reply);
    request.log.info({
      method: request.method,
      path,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    });
  }
}
