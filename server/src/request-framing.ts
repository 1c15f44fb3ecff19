import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorDetail, errorBody, errorDetails } from '@acme/contract';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-errors.js';

/** How long a refused connection has to read its answer and hang up before it is cut. */
const hangUpWithinMs = 5_000;

/** Connections already answered: Node reports each later byte of a request it could not read as a new error. */
const answered = new WeakSet<Socket>();

/** What Node's error means for the caller, with the statuses Node itself would answer. */
function refusalOf(code: string): { status: number; detail: ErrorDetail } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, detail: errorDetails.framing.timeout };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, detail: errorDetails.framing.headersTooLarge };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return { status: 413, detail: errorDetails.requestBody.tooLarge };
  return { status: 400, detail: errorDetails.framing.malformed };
}

/** The response of `request` under way on this connection, as Node itself looks for it before it answers an error. */
const responseUnderWay = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;

/**
 * Fastify's `clientErrorHandler`: a request Node could not read (its chunked body or its headers malformed, headers
 * too large, or not whole in time) is answered in the API's one error shape, with Node's status, and its connection
 * closed: nothing after the broken bytes can be trusted to start a request. Nothing is written on a connection
 * already reset, no longer writable or whose response has begun (it would corrupt what the caller reads). One line at
 * info level says so: the caller's mistake, not a failure here, and nothing of the request (its headers could hold a
 * cookie) is logged.
 */
export function answerUnreadableRequest(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  if (answered.has(socket)) return;
  if (error.code === 'ECONNRESET' || !socket.writable || responseUnderWay(socket)?.headersSent) {
    this.log.debug({ code: error.code }, 'a connection failed before its request could be answered');
    socket.destroy();
    return;
  }
  answered.add(socket);
  const { status, detail } = refusalOf(error.code);
  this.log.info({ code: error.code, status, reason: error.message }, 'a request Node could not read was refused');
  const body = JSON.stringify(errorBody('bad_request:input', detail));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
  ];
  // Ended rather than destroyed, so the answer is not lost to a reset while the caller's last bytes are still coming.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const cut = setTimeout(() => socket.destroy(), hangUpWithinMs).unref();
  socket.once('close', () => clearTimeout(cut));
}

/**
 * An HTTP/1.1 request must name its host (RFC 9112, 3.2). Node's own check (`requireHostHeader`, turned off in app.ts)
 * answers a bare 400 with none of our headers; this hook, the first of all, refuses it as Node would (400, connection
 * closed) but in the API's error shape with the site's security headers, whose hook it runs before. HTTP/1.0 has no
 * Host header and is served as before.
 */
export function refuseRequestsWithoutHost(app: FastifyInstance) {
  // Callback style: on every request, without a promise for the common case of nothing to do. Answering without
  // calling `done` ends the hook chain there.
  app.addHook('onRequest', function refuseWithoutHost(request, reply, done) {
    const { headers, httpVersionMajor, httpVersionMinor } = request.raw;
    if (headers.host !== undefined || httpVersionMajor !== 1 || httpVersionMinor !== 1) return done();
    const site = (reply.server as Partial<Pick<FastifyInstance, 'site'>>).site;
    if (site) reply.headers(site.current().securityHeaders);
    reply.header('connection', 'close');
    sendApiError(reply, 'bad_request:input', errorDetails.framing.noHost);
  });
}

/**
 * Fastify's `frameworkErrors`: an address its router cannot decode (`/%c0%ae%c0%ae/x`, percent-escapes that are not
 * UTF-8) or refuses (a parameter over its length) is refused as any bad address is, `bad_request:path`, with the
 * site's security headers, which no hook adds to an answer given before routing. The address is not repeated back.
 */
export function answerUndecodableAddress(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const site = (reply.server as Partial<Pick<FastifyInstance, 'site'>>).site;
  if (site) reply.headers(site.current().securityHeaders);
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendApiError(reply, 'bad_request:path', errorDetails.path.notPercentEncoded);
  }
  // Its other refusals (a parameter over the router's length, 414) keep their status.
  if (error.statusCode !== undefined && error.statusCode < 500) {
    return sendApiError(reply, 'bad_request:path', undefined, error.statusCode);
  }
  request.log.error({ err: error }, 'the router failed on a request');
  return sendApiError(reply, 'internal:server');
}
