import Fastify, { type RouteOptions } from 'fastify';
import { AccessLog, requestRecorder } from './access-log.js';
import { accessPolicyPlugin } from './auth/access-policy-plugin.js';
import { authPlugin } from './auth/auth-plugin.js';
import { oauthRoutes } from './auth/oauth/routes.js';
import { resourceMetadataRoutes } from './auth/tokens/resource-metadata.js';
import { tokenRoutes } from './auth/tokens/token-routes.js';
import type { Config } from './config.js';
import { capConnections } from './connection-caps.js';
import { modelPlugin } from './copilot/model/model-plugin.js';
import { imageTextPlugin } from './copilot/ocr/image-text-plugin.js';
import { copilotRoutes } from './copilot/routes.js';
import { createFastLane } from './gate/fast-lane.js';
import { fastLanePlugin } from './gate/fast-lane-plugin.js';
import { sitePlugin, startReadingSite } from './gate/site-plugin.js';
import { siteRoutes } from './gate/site-routes.js';
import { registerErrorPages } from './gate/unavailable-page.js';
import { insightsRoutes } from './insights/routes.js';
import { limitsPlugin } from './limits/limits-plugin.js';
import { createLogDestination } from './log-destination.js';
import { loggerOptions } from './logger-options.js';
import { mcpRoutes } from './mcp/routes.js';
import { healthPlugin } from './ops/health-routes.js';
import { loadMetrics, operationsPlugin } from './ops/operations.js';
import { closeConnectionsAsTheyFallIdle } from './ops/shutdown.js';
import { closeConnectionsOfUnreadBodies, refuseUnreadableBodies } from './request-bodies.js';
import { answerUndecodableAddress, answerUnreadableRequest, refuseRequestsWithoutHost } from './request-framing.js';
import { searchRoutes } from './search/routes.js';
import { searchIndexPlugin } from './search/search-index-plugin.js';
import type { Store } from './store/database.js';
import { storePlugin } from './store/store-plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration the server was built with (config.ts). */
    config: Config;
  }
}

export type BuildOptions = {
  /** An already open store (tests share one); otherwise the app opens and closes its own. */
  store?: Store;
  /** False sends every request through Fastify (tests compare the fast lane's answers with Fastify's). */
  fastLane?: boolean;
  /** Returns only once the first search index is in, as tests that search at once expect. */
  waitForSearchIndex?: boolean;
  /** The first search index is swapped in only once this settles (tests of what answers while it is built). */
  holdFirstSearch?: Promise<unknown>;
  /** Told of every route as it is added (a test checks that each JSON API has its response schema). */
  onRoute?: (route: RouteOptions) => void;
  /** How long a connection has to send a request's headers (tests of the limit shorten it). */
  headersTimeoutMs?: number;
  /** How long a reader may leave written bytes unread (send-deadline.ts; tests shorten it). */
  sendDeadlineMs?: number;
};

/**
 * How long a connection has to send a request's headers, from its opening or from a later request's first byte: one
 * that connects and sends nothing (or headers a byte at a time) is answered 408 and closed then, instead of holding a
 * socket for node's 60 s, looked at every 30 s. Browsers and nginx send headers at once, so this costs readers nothing;
 * a body still arriving, an answer streaming and a keep-alive connection between two requests are not counted.
 */
const headersTimeoutMs = 20_000;

/**
 * Builds the whole server from a parsed config; tests call this with their own config. Each shared part is a plugin
 * that declares what it needs (Fastify refuses one registered before its dependencies) and decorates the instance;
 * the routes read the parts from it. They close in the reverse order: the answers still running first, the store last.
 */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const metrics = await loadMetrics(config);
  const lane = createFastLane({ sendDeadlineMs: options.sendDeadlineMs });
  const logDestination = createLogDestination();
  const headersTimeout = options.headersTimeoutMs ?? headersTimeoutMs;
  const app = Fastify({
    serverFactory: lane.serverFactory,
    logger: await loggerOptions(config, logDestination),
    logController: new AccessLog(requestRecorder(metrics?.observeRequest)),
    // Behind a balancer, its X-Forwarded-For names the reader (the sign-in limit counts by address).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // While it stops it refuses new connections, which a balancer retries on another instance, and serves what still
    // arrives on open ones (each answer closing its connection) instead of answering 503: a 503 is what a database
    // outage gives on every instance, so the balancer neither retries it nor counts it against an instance.
    return503OnClosing: false,
    // Fastify's own default, kept for balancers: longer than the idle time after which nginx (its upstream
    // keepalive_timeout) and cloud balancers drop a kept connection, so the server never closes one just as they reuse
    // it (their 502). A client without a balancer gets it too; connection-caps.ts bounds what it can hold with it.
    keepAliveTimeout: 72_000,
    // A request (headers and body) must arrive within five minutes, node's own default, which Fastify's 0 turns off:
    // a client trickling a body cannot hold sockets for ever, and four screenshots (28 MB) still fit a slow uplink.
    requestTimeout: 300_000,
    // Node looks for connections past their headers timeout this often (every 30 s by default): at a tenth of the
    // timeout, none is held more than 10 % past it.
    // A request without a Host header reaches Fastify, which refuses it in the API's shape (request-framing.ts).
    http: { headersTimeout, connectionsCheckingInterval: headersTimeout / 10, requireHostHeader: false },
    // The site plugin waits for the build's files to be read and hashed on another thread: thousands of pages with
    // their compressed twins take longer than Fastify's default 10 s on a busy machine.
    pluginTimeout: 300_000,
    // A request Node cannot read is answered in the API's error shape rather than Fastify's.
    clientErrorHandler: answerUnreadableRequest,
    frameworkErrors: answerUndecodableAddress,
  });
  // Before any route is added: a text/plain or compressed body is refused as 415 by every route.
  refuseUnreadableBodies(app);
  // Before any route is added too: an answer given before its request's body was read closes the connection.
  closeConnectionsOfUnreadBodies(app);
  // Before every other hook: a request without a Host header is refused before any hook reads its address.
  refuseRequestsWithoutHost(app);
  // A connection past the caps is closed as it arrives, before anything of it is read.
  capConnections(app, config);
  logDestination.reportDroppedLines((count) =>
    app.log.warn({ dropped: count }, 'log lines dropped: the log output took no lines for a while'),
  );
  // First of all on closing: from then on Fastify answers every request, each closing its connection.
  app.addHook('preClose', (done) => {
    lane.stop();
    done();
  });
  closeConnectionsAsTheyFallIdle(app);
  // First, so every plugin registered below inherits it: a database outage is a 503 page, never SQL in a 500.
  registerErrorPages(app);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.decorate('config', config);
  app.decorate('metrics', metrics);
  // The build is read on another thread while the database opens.
  const reading = startReadingSite(app, options.holdFirstSearch);
  try {
    await app.register(storePlugin, { store: options.store });
    await app.register(sitePlugin, { reading });
    await app.register(operationsPlugin);
    await app.register(limitsPlugin);
    await app.register(accessPolicyPlugin);
    await app.register(authPlugin);
    await app.register(healthPlugin);
    await app.register(modelPlugin);
    await app.register(searchIndexPlugin);
    await app.register(imageTextPlugin);
    const apiRoutes = [copilotRoutes, searchRoutes, insightsRoutes, tokenRoutes];
    // MCP: its resource metadata, the authorization server that grants its tokens, the endpoint itself.
    const mcp = [resourceMetadataRoutes, oauthRoutes, mcpRoutes];
    for (const plugin of [...apiRoutes, ...mcp]) await app.register(plugin);
    await app.register(siteRoutes);
    await app.register(fastLanePlugin, { lane, open: options.fastLane !== false });
  } catch (error) {
    // What opened is closed again; a build still being read is closed once it is in.
    await app.close().catch(() => {});
    if (!app.hasDecorator('site')) void reading.then((site) => site.close()).catch(() => {});
    throw error;
  }
  if (options.waitForSearchIndex) await app.searchIndex.ready();
  return app;
}
