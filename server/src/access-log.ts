import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Told of every finished request: method, path without query, status and milliseconds (the server's metrics). */
export type RequestObserver = (method: string, path: string, status: number, ms: number) => void;

/** An answered request as its access line and the metrics see it. */
export type AnsweredRequest = { method: string; path: string; status: number; ms: number };

/** A request target without its query, as every line and metric names it: a sign-in callback's query is a secret. */
export function withoutQuery(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/**
 * Writes an answered request down, whichever path answered it (Fastify, or the gate's fast lane): the metrics sample,
 * and one access line at info level (LOG_LEVEL=warn turns it off). `reqId` names a request `log` does not bind; no
 * line is written for a failure, which has Fastify's error line instead.
 */
export function requestRecorder(observe: RequestObserver | undefined) {
  return (log: FastifyBaseLogger, answered: AnsweredRequest, line: { reqId?: string; failed?: boolean } = {}) => {
    const { method, path, status, ms } = answered;
    observe?.(method, path, status, ms);
    if (line.failed) return;
    const fields = { method, path, status, ms: Math.round(ms * 10) / 10 };
    log.info(line.reqId === undefined ? fields : { reqId: line.reqId, ...fields });
  };
}

export type RequestRecorder = ReturnType<typeof requestRecorder>;

/**
 * One line per request instead of Fastify's two (received, completed), each with a serialised request, written by
 * `requestRecorder` from the request's logger; failures keep Fastify's error line. The metrics are taken there too,
 * where the path is already cut, rather than in a hook of their own on every request.
 */
export class AccessLog extends LogController {
  constructor(private readonly record: RequestRecorder) {
    super();
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const answered = {
      method: request.method,
      path: withoutQuery(request.url),
      status: reply.statusCode,
      ms: reply.elapsedTime,
    };
    this.record(request.log, answered, { failed: Boolean(error) });
    if (error) super.requestCompleted(error, request, reply);
  }

  /** Fastify's own line names the whole URL: a token or code a client put in the query would reach the log. */
  override routeNotFound(request: FastifyRequest) {
    request.log.info(`Route ${request.method}:${withoutQuery(request.url)} not found`);
  }
}

/** A request as any log line serialises it (an error's, a failed write's): its URL without the query, as above. */
export const serializeRequest = (request: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | undefined;
}) => ({
  method: request.method,
  url: withoutQuery(request.url ?? ''),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
