import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type ErrorDetail, errorDetails } from '@acme/contract';
import type { FastifyInstance, preParsingAsyncHookHandler } from 'fastify';

/**
 * A body sent with a Content-Encoding: no route of ours inflates one, so it is refused before a byte of it is read
 * (415, as an unknown media type is) instead of failing as JSON or a form that does not parse. Each route's own
 * error handler answers it in its shape: the API's with its bad-request code, OAuth's and MCP's in their protocol's.
 */
export class CompressedBodyRefused extends Error {
  readonly statusCode = 415;
  readonly code = 'ACME_COMPRESSED_BODY';

  constructor(readonly detail: ErrorDetail) {
    super(detail);
    this.name = 'CompressedBodyRefused';
  }
}

/** The methods whose bodies Fastify never reads, so their headers say nothing it would act on. */
const bodilessMethods = new Set(['GET', 'HEAD', 'TRACE']);

/** A list of content codings as HTTP spells them (`gzip`, `gzip, br`): quoted back to the caller as sent. */
const codingList = /^[\w!#$%&'*+.^`|~-]+(?:\s*,\s*[\w!#$%&'*+.^`|~-]+)*$/;

/** The Content-Encoding named in the refusal: as sent when it reads as codings, else without repeating it. */
const namedInRefusal = (encoding: string) =>
  encoding.length <= 40 && codingList.test(encoding) ? encoding : 'other than identity';

/** Whether a request's headers announce a body: a length other than 0, or chunks. */
export const announcesBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

const refuseCompressedBody: preParsingAsyncHookHandler = async (request, _reply, payload) => {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || !announcesBody(request.headers)) return payload;
  const codings = encoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === '' || coding === 'identity')) return payload;
  throw new CompressedBodyRefused(errorDetails.requestBody.compressed(namedInRefusal(encoding.trim())));
};

/** Whether routes added to `instance` parse JSON or form bodies, the only ones a compressed body would garble. */
const parsesJsonOrForms = (instance: FastifyInstance) =>
  instance.hasContentTypeParser('application/json') ||
  instance.hasContentTypeParser('application/x-www-form-urlencoded');

/**
 * Call on the root instance before any route is added. Fastify reads text/plain by default, which hands a JSON API a
 * string its schema then refuses as "expected object": without that parser such a body is refused as 415, as any
 * type no route reads is (no route of ours takes text/plain). Every route that parses JSON or forms refuses a
 * compressed body first. A route whose plugin parses neither, taking every body as it comes (the development IdP's
 * protocol hands it to oidc-provider unread), is left alone, and so are pages (GET, HEAD): the fast lane that answers
 * them before Fastify has no hook to skip.
 */
export function refuseUnreadableBodies(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRoute', function addCompressedBodyRefusal(route) {
    if ([route.method].flat().every((method) => bodilessMethods.has(method))) return;
    if (!parsesJsonOrForms(this)) return;
    route.preParsing = [refuseCompressedBody, ...[route.preParsing ?? []].flat()];
  });
}

/**
 * Call on the root instance before any route is added. A request answered before its body arrived whole was refused
 * before it was read (no session, a body over the route's limit, an unknown API). Left to Node, its connection would
 * read and discard the rest of the body, however large, then wait for the next request: a stranger could make the
 * server read 200 MB, or hold a socket for the whole request timeout by trickling a body. Such an answer says
 * `Connection: close`, and Node closes the connection once it is written; a request whose body was read keeps its.
 * Node answers `Expect: 100-continue` as soon as the headers are in, inviting anyone to send the body; with a
 * `checkContinue` listener it leaves that to us. `100 Continue` is sent once the body starts being read, that is once
 * the gate and the route's limits have let the request in: a client that waits for it (curl uploading a screenshot)
 * gets it then, and one refused gets the refusal instead, with its connection closed (Node's own rule for an
 * expectation left unanswered).
 */
export function closeConnectionsOfUnreadBodies(app: FastifyInstance) {
  // Callback style: on every answer, without a promise for the common case of nothing to do.
  app.addHook('onSend', function closeAfterUnreadBody(request, reply, payload, done) {
    if (!request.raw.complete && announcesBody(request.raw.headers)) reply.header('connection', 'close');
    done(null, payload);
  });
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    // A body refused unread is resumed by Node to be discarded once its answer is written: no 100 then.
    request.once('resume', () => {
      if (!response.headersSent) response.writeContinue();
    });
    app.server.emit('request', request, response);
  });
}
