import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientHungUp, databaseRetryAfterSeconds, sendApiError, sendDatabaseUnavailable } from '../api-errors.js';
import { logoSvg } from '../auth/assets.js';
import { pageStylesheet, renderPage } from '../auth/html.js';
import { announcesBody } from '../request-bodies.js';
import { isDatabaseUnavailable } from '../store/unavailable.js';

/**
 * What a reader sees while the database is away: one short page in the gate's style, whole in itself (its stylesheet
 * and logo would need the database to get through the gate too), that says to try again.
 */
const unavailablePage = renderPage({
  title: 'Unavailable for a moment · Acme Developer Handbook',
  testId: 'unavailable-page',
  inline: { stylesheet: pageStylesheet, logoSvg },
  body: `<h1>The handbook is unavailable for a moment</h1>
<p>It cannot reach its database right now. Try again shortly; nothing you were reading is lost.</p>
<a class="button" href="">Try again</a>`,
});

/** A 503 to try again after a few seconds: the page above for a browser, the API's JSON error for anything else. */
export function sendUnavailable(request: FastifyRequest, reply: FastifyReply) {
  const browser = request.headers.accept?.includes('text/html') && !request.url.startsWith('/api/');
  if (!browser) return sendDatabaseUnavailable(reply);
  return reply
    .code(503)
    .header('retry-after', String(databaseRetryAfterSeconds))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(unavailablePage);
}

/**
 * The error handler of every route without one of its own (the site, sign-in, health), and the answer to a request no
 * route takes: a database out of reach is a
 * 503 to try again, any other failure a 500 that says nothing of itself. The details (SQL, parameters, session id
 * hashes) go to the log only. A request's own mistakes (4xx) keep Fastify's answers.
 */
export function registerErrorPages(app: FastifyInstance) {
  // A method no route takes at the address (`PUT /firestore-ttl`, `POST /MCP`): pages answer GET and HEAD alone. In
  // the API's shape, instead of Fastify's message, which repeats the whole address and its query.
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, 'not_found:route'));
  // One with a body is refused before Fastify reads it (up to 1 MB, for as long as a stranger trickles it), its
  // connection then closed (request-bodies.ts). A hook of every route: those Fastify lets the not-found handler have
  // of its own (preValidation, preHandler) run only once the body is read.
  app.addHook('preParsing', function refuseBodyOfUnknownRoute(request, reply, payload, done) {
    if (!request.is404 || !announcesBody(request.raw.headers)) return done(null, payload);
    sendApiError(reply, 'not_found:route');
  });
  const fastifyDefault = app.errorHandler;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (clientHungUp(request, error)) return reply.code(400).send();
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'the database is unavailable');
      return sendUnavailable(request, reply);
    }
    if (error.statusCode !== undefined && error.statusCode < 500) return fastifyDefault(error, request, reply);
    request.log.error({ err: error }, 'request failed');
    return sendApiError(reply, 'internal:server');
  });
}
