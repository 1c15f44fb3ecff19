import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientHungUp, databaseRetryAfterSeconds } from '../api-errors.js';
import { isAllowed } from '../auth/request-access.js';
import { resourceMetadataUrlOf } from '../auth/tokens/resource-metadata.js';
import { refuseBearer } from '../auth/tokens/token-access.js';
import { isDatabaseUnavailable } from '../store/unavailable.js';
import { registerCallLimit } from './call-limit.js';
import { cancellableCalls, cancelledIdsIn, requestIdsIn } from './cancellable-calls.js';
import { handbookApi } from './handbook-api.js';
import { handbookServer } from './handbook-server.js';
import { invalidParamsOf } from './invalid-params.js';
import { invalidRequestIn } from './invalid-request.js';
import { PacedTransport } from './paced-transport.js';

/** What a client that is not an MCP request gets: JSON-RPC's own error shape, as the SDK's clients read it. */
function methodNotAllowed(reply: FastifyReply) {
  return reply
    .code(405)
    .header('allow', 'POST')
    .header('cache-control', 'no-store')
    .send({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST.' },
      id: null,
    });
}

/** JSON-RPC 2.0's answer to a body that is JSON but no request (an empty batch, an object as the id). */
function invalidRequest(reply: FastifyReply, reason: string) {
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .send({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${reason}` }, id: null });
}

/**
 * JSON-RPC's answer to a request the database could not serve (the token is read from it first): 503 with Retry-After,
 * as every other API answers, so an agent tells an outage from a bug. -32603 is JSON-RPC's code for a failure of the
 * server; the message and `data` say it passes, as the call limit's refusal says when to try again (call-limit.ts).
 */
const databaseUnavailable = {
  status: 503,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': String(databaseRetryAfterSeconds),
  },
  body: {
    jsonrpc: '2.0',
    error: {
      code: -32603,
      message: "The handbook's database is unavailable; try again in a few seconds.",
      data: { retryAfterSeconds: databaseRetryAfterSeconds },
    },
    id: null,
  },
} as const;

/** Any other failure: nothing of it is told. */
const internalError = {
  status: 500,
  headers: { 'content-type': 'application/json' },
  body: { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null },
} as const;

/** The personal token of the request (the onRequest hook refuses one without): whose calls it may cancel. */
const tokenOf = (request: FastifyRequest) =>
  request.access.state === 'signed-in' ? (request.access.personalTokenId ?? '') : '';

/**
 * POST /mcp: the handbook as an MCP server over Streamable HTTP, stateless (a new server and transport per request,
 * answers as JSON), so any instance answers any request and nothing is shared between instances. Only a personal
 * access token is accepted here (auth/tokens/): a browser's session cookie is not, so no other site can make a
 * signed-in browser call it. Without one: 401 pointing at the RFC 9728 metadata, as the MCP specification asks.
 * A call stops when its agent hangs up or cancels it (notifications/cancelled): closing the request's server aborts
 * the tool's signal, and with it the handbook request the tool made (an answer's model request included).
 * A batch's entries run one at a time, the event loop turning between them (PacedTransport), and each tool call and
 * resource read or listing counts against the reader's requests a minute (call-limit.ts). A request whose params its
 * method's schema refuses is answered Invalid params (-32602) before it runs (invalid-params.ts).
 */
export const mcpRoutes = fp(
  async (app) => {
    const origin = app.config.publicUrl.origin;
    const resourceMetadataUrl = resourceMetadataUrlOf(app.config.publicUrl);
    app.addHook('onRequest', async (request, reply) => {
      const access = request.access;
      if (access.state !== 'signed-in' || access.personalTokenId === undefined) {
        return refuseBearer(reply, resourceMetadataUrl);
      }
      // The token hook has already refused a reader the policy refuses; this keeps /mcp closed should that change.
      if (!isAllowed(access)) return refuseBearer(reply, resourceMetadataUrl, 'invalid_token');
    });
    app.setErrorHandler(jsonRpcErrorHandler);
    app.get('/mcp', async (_request, reply) => methodNotAllowed(reply));
    app.delete('/mcp', async (_request, reply) => methodNotAllowed(reply));
    const calls = cancellableCalls();
    const callLimitOf = await registerCallLimit(app);
    app.post('/mcp', async (request, reply) => {
      // Parsed twice: the SDK parses every entry again even when handed the body, refusing a bad one -32700 not -32600.
      const invalid = invalidRequestIn(request.body);
      if (invalid) return invalidRequest(reply, invalid);
      const token = tokenOf(request);
      calls.cancel(token, cancelledIdsIn(request.body));
      const api = handbookApi(app, request.headers.authorization ?? '', origin);
      const server = handbookServer({ api, origin, version: '1.0.0' });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const callLimit = callLimitOf(request);
      // A request whose params are refused does none of the handbook's work, so it is not counted either.
      const paced = new PacedTransport(transport, async (entry) => invalidParamsOf(entry) ?? callLimit(entry));
      const stop = () => {
        void transport.close();
        void server.close();
      };
      const forget = calls.track(token, requestIdsIn(request.body), () => {
        stop();
        // The SDK answers no cancelled request, as MCP asks, which as JSON would leave this POST open until the agent
        // hangs up: end it with nothing to read, as a notification is answered.
        if (!reply.raw.headersSent) reply.raw.writeHead(202, { 'cache-control': 'no-store' }).end();
      });
      reply.hijack();
      reply.raw.setHeader('cache-control', 'no-store');
      reply.raw.on('close', () => {
        forget();
        stop();
      });
      try {
        await server.connect(paced);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        const unavailable = isDatabaseUnavailable(error);
        request.log.error({ err: error }, unavailable ? 'the database is unavailable' : 'the MCP request failed');
        if (reply.raw.headersSent) return;
        const { status, headers, body } = unavailable ? databaseUnavailable : internalError;
        reply.raw.writeHead(status, headers).end(JSON.stringify(body));
      }
    });
  },
  { name: 'mcp-routes', fastify: '5.x', encapsulate: true, decorators: { fastify: ['config', 'limits'] } },
);

/**
 * A request Fastify refuses before the SDK sees it (a body that is not JSON, or too large), or one that fails before it
 * (its token could not be read: the database is away), is answered as JSON-RPC, as the SDK answers its own refusals:
 * an agent's client reads `error.message`, not Fastify's own error shape.
 */
function jsonRpcErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (clientHungUp(request, error)) return reply.code(400).send();
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'the database is unavailable');
    const { status, headers, body } = databaseUnavailable;
    return reply.code(status).headers(headers).send(body);
  }
  const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, 'the MCP request failed');
  const notJson = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
  const [code, message] = notJson
    ? [-32700, 'Parse error: the body is not JSON.']
    : status === 413
      ? [-32600, 'Invalid request: the body is too large.']
      : status < 500
        ? [-32600, 'Invalid request.']
        : [-32603, 'Internal error'];
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
