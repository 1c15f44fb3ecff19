import { createHmac } from 'node:crypto';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { AccessLog } from './access-log.js';
import { cookieSealer } from './auth/cookie-sealer.js';
import { createDevelopmentProvider } from './auth/dev-idp/provider.js';
import { developmentProviderRoutes } from './auth/dev-idp/routes.js';
import { createIdentityProviderClient } from './auth/identity-provider.js';
import { sessionSecretOf } from './auth/kept-secret.js';
import { oauthRoutes } from './auth/oauth/routes.js';
import { createPolicySource } from './auth/policy-source.js';
import { authRoutes } from './auth/routes.js';
import { cookieNames, sessionCookieCodec } from './auth/session-cookie.js';
import { createSessionService } from './auth/session-service.js';
import { createSignInResponder } from './auth/sign-in-response.js';
import { resourceMetadataRoutes, resourceMetadataUrlOf } from './auth/tokens/resource-metadata.js';
import { tokenRoutes } from './auth/tokens/token-routes.js';
import { registerTokenViewer } from './auth/tokens/token-viewer.js';
import { createViewerResolver, registerViewer } from './auth/viewer.js';
import type { Config } from './config.js';
import { createChatModel, createEmbeddingModel } from './copilot/model/provider.js';
import { createImageTextReader } from './copilot/ocr/image-text-reader.js';
import { readImageText } from './copilot/ocr/read-image-text.js';
import { copilotRoutes } from './copilot/routes.js';
import { createFastLane } from './gate/fast-lane.js';
import { followSite, type SiteFollower } from './gate/site-follower.js';
import { siteRoutes } from './gate/site-routes.js';
import { registerErrorPages } from './gate/unavailable-page.js';
import { insightsRoutes } from './insights/routes.js';
import { openLimits } from './limits/limits.js';
import { createLogDestination, type LogDestination } from './log-destination.js';
import { serializeError } from './log-serializers.js';
import { mcpRoutes } from './mcp/routes.js';
import { registerHealthRoutes } from './ops/health-routes.js';
import { loadMetrics, runOperations } from './ops/operations.js';
import { closeConnectionsAsTheyFallIdle } from './ops/shutdown.js';
import { searchRoutes } from './search/routes.js';
import { requireSearchIndex } from './search/search-being-built.js';
import { createSemanticIndex } from './search/semantic-index.js';
import { openStore, type Store } from './store/database.js';
import { keepDataDirectoryPrivate } from './store/private-files.js';

/**
 * Both formats write through one bounded destination (a log sink that stops reading cannot hold the process). Pretty
 * lines are made on this thread: pino's transport would start a worker thread (about 20 MB) for them.
 */
async function loggerOptions(config: Config, destination: LogDestination): Promise<FastifyServerOptions['logger']> {
  const serializers = { err: serializeError };
  if (config.logFormat === 'json') return { level: config.logLevel, serializers, stream: destination.stream };
  const { default: pinoPretty } = await import('pino-pretty');
  return {
    level: config.logLevel,
    serializers,
    stream: pinoPretty({ translateTime: 'HH:MM:ss', destination: destination.stream }),
  };
}

/** Access lines are written at info level. */
const accessLinesOn = (config: Config) => ['trace', 'debug', 'info'].includes(config.logLevel);

export type BuildOptions = {
  /** An already open store (tests share one); otherwise the app opens and closes its own. */
  store?: Store;
  /** False sends every request through Fastify (tests compare the fast lane's answers with Fastify's). */
  fastLane?: boolean;
  /** Returns only once the first search index is in, as tests that search at once expect. */
  waitForSearchIndex?: boolean;
  /** The first search index is swapped in only once this settles (tests of what answers while it is built). */
  holdFirstSearch?: Promise<unknown>;
};

/** Opens our own store and the site at once; when either fails, the other is closed before the error goes on. */
async function openTogether(openDatabase: (() => Promise<Store>) | Store, openSite: () => Promise<SiteFollower>) {
  const ownStore = typeof openDatabase === 'function';
  const [store, site] = await Promise.allSettled([ownStore ? openDatabase() : openDatabase, openSite()]);
  if (store.status === 'fulfilled' && site.status === 'fulfilled') return [store.value, site.value] as const;
  if (site.status === 'fulfilled') site.value.close();
  if (store.status === 'fulfilled' && ownStore) await store.value.close();
  throw store.status === 'rejected' ? store.reason : (site as PromiseRejectedResult).reason;
}

/** Builds the whole server from a parsed config; tests call this with their own config. */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const metrics = await loadMetrics(config);
  const lane = createFastLane();
  const logDestination = createLogDestination();
  const app = Fastify({
    serverFactory: lane.serverFactory,
    logger: await loggerOptions(config, logDestination),
    logController: new AccessLog(metrics?.observeRequest),
    // Behind a balancer, its X-Forwarded-For names the reader (the sign-in limit counts by address).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // While it stops it refuses new connections, which a balancer retries on another instance, and serves what still
    // arrives on open ones (each answer closing its connection) instead of answering 503: a 503 is what a database
    // outage gives on every instance, so the balancer neither retries it nor counts it against an instance.
    return503OnClosing: false,
    // A request (headers and body) must arrive within five minutes, node's own default, which Fastify's 0 turns off:
    // a client trickling a body cannot hold sockets for ever, and four screenshots (28 MB) still fit a slow uplink.
    requestTimeout: 300_000,
  });
  logDestination.reportDroppedLines((count) =>
    app.log.warn({ dropped: count }, 'log lines dropped: the log output was not read for a while'),
  );
  // First of all on closing: from then on Fastify answers every request, each closing its connection.
  app.addHook('preClose', (done) => {
    lane.stop();
    done();
  });
  closeConnectionsAsTheyFallIdle(app);
  // First, so every plugin registered below inherits it: a database outage is a 503 page, never SQL in a 500.
  registerErrorPages(app);
  await keepDataDirectoryPrivate(config.dataDirectory, app.log);
  // The database and the built site are opened side by side: the site is read on another thread meanwhile.
  const [store, site] = await openTogether(
    options.store ??
      (() =>
        openStore({
          databaseUrl: config.databaseUrl,
          dataDirectory: path.join(config.dataDirectory, 'pglite'),
          timeouts: config.databaseTimeouts,
          onStaleLock: (message) => app.log.warn(message),
        })),
    // The built site as one snapshot (files, headers, search index), rebuilt in the background and swapped in whole.
    () =>
      followSite(config.siteDirectory, {
        strictTransport: config.secureCookies,
        publicOrigin: config.publicUrl.origin,
        onSwapped: (snapshot) => app.log.info({ fingerprint: snapshot.fingerprint }, 'serving a new site build'),
        onKeptPrevious: (reason) => app.log.warn({ reason }, 'keeping the previous site build'),
        holdFirstSearch: options.holdFirstSearch,
      }),
  );
  if (!options.store) app.addHook('onClose', () => store.close());
  app.addHook('onClose', async () => site.close());
  runOperations(app, { config, store, metrics, buildLoadedAt: () => site.current().loadedAt });
  // Questions and searches per reader, counted for all instances together: in Redis, else PostgreSQL, else here.
  const limits = await openLimits({
    redisUrl: config.redisUrl,
    postgres: store.kind === 'postgres' ? store.db : undefined,
    log: app.log,
  });
  app.addHook('onClose', () => limits.close());
  const policySource = createPolicySource(config.accessSettings, config.accessPolicyFile, (message) =>
    app.log.error(message),
  );
  const currentPolicy = () => policySource.current();
  const sessionSecret = sessionSecretOf(config, app.log);
  await app.register(fastifyCookie, { secret: cookieSealer(sessionSecret) });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(site.current().securityHeaders);
    done();
  });
  const sessions = createSessionService({ db: store.db, config });
  const sessionCookies = sessionCookieCodec(sessionSecret);
  const viewers = createViewerResolver({ sessions, currentPolicy, cookies: sessionCookies });
  registerViewer(app, { config, viewers });
  const resourceMetadataUrl = resourceMetadataUrlOf(config.publicUrl);
  registerTokenViewer(app, { db: store.db, currentPolicy, resourceMetadataUrl });

  let credentials: { clientId: string; clientSecret: string };
  const { identityProvider } = config;
  if (identityProvider.kind === 'development') {
    const idp = createDevelopmentProvider({
      issuer: identityProvider.issuer,
      redirectUri: new URL('/auth/callback', config.publicUrl).href,
      environment: config.environment,
      workspaceDomains: () => currentPolicy().domains,
      clientSecret: createHmac('sha256', sessionSecret).update('development sign-in client').digest('base64url'),
    });
    credentials = idp.client;
    await app.register(developmentProviderRoutes, { idp, publicUrl: config.publicUrl });
  } else {
    credentials = { clientId: identityProvider.clientId, clientSecret: identityProvider.clientSecret };
  }

  const sendSignInPage = createSignInResponder({
    currentPolicy,
    developmentSignIn: identityProvider.kind === 'development',
  });
  registerHealthRoutes(app, { store, siteLoaded: () => site.current().files.size > 0 });
  // Until the first index is built, what needs it answers 503 with Retry-After at once; the pages are served meanwhile.
  app.addHook(
    'preHandler',
    requireSearchIndex(() => site.current().search, ['/api/search', '/api/askAi', '/api/turns']),
  );
  await app.register(authRoutes, {
    config,
    sessions,
    sessionCookies,
    currentPolicy,
    signInCounts: limits.perMinuteStore,
    identityProvider: createIdentityProviderClient(config, credentials),
    sendSignInPage,
  });
  const publicOrigin = config.publicUrl.origin;
  const embeddingModel = config.model ? await createEmbeddingModel(config.model) : undefined;
  const semanticIndex =
    embeddingModel === undefined
      ? undefined
      : createSemanticIndex({
          model: embeddingModel,
          currentSections: () => site.current().search.sections,
          onError: (message, error) => app.log.warn({ reason: (error as Error).message }, message),
        });
  if (semanticIndex) app.addHook('onReady', () => void semanticIndex.refresh());
  const ocrReader = createImageTextReader();
  const imageTextReader = metrics ? metrics.timeImageReading(ocrReader) : ocrReader;
  app.addHook('onClose', () => imageTextReader.close());
  await app.register(copilotRoutes, {
    publicOrigin,
    db: store.db,
    ...config.askLimits,
    limits,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    observer: metrics?.copilot,
    currentIndex: () => site.current().search,
    semanticSearch: semanticIndex?.search,
    readImageText: (images, signal, owner) => readImageText(imageTextReader, { images, owner }, signal, app.log),
    model: config.model && {
      languageModel: await createChatModel(config.model),
      timeoutMs: config.model.timeoutMs,
      vision: config.model.vision,
      maxOutputTokens: config.model.maxOutputTokens,
    },
  });
  await app.register(searchRoutes, {
    publicOrigin,
    currentEngine: () => site.current().search,
    requestsPerMinute: config.searchRequestsPerMinute,
    limits,
    db: store.db,
  });
  await app.register(insightsRoutes, {
    publicOrigin,
    db: store.db,
    currentPolicy,
    current: () => site.current(),
    sendSignInPage,
  });
  await app.register(tokenRoutes, { db: store.db, publicOrigin });
  await app.register(resourceMetadataRoutes, { publicUrl: config.publicUrl });
  await app.register(oauthRoutes, {
    db: store.db,
    publicUrl: config.publicUrl,
    currentPolicy,
    sendSignInPage,
    registrationCounts: limits.perMinuteStore,
  });
  await app.register(mcpRoutes, { publicUrl: config.publicUrl, resourceMetadataUrl });
  await app.register(siteRoutes, {
    current: () => site.current(),
    sendSignInPage,
  });
  if (options.fastLane !== false) {
    const sessionCookie = cookieNames(config).session;
    lane.open({
      current: () => site.current(),
      viewerOf: (cookieHeader) =>
        viewers.known(cookieHeader ? app.parseCookie(cookieHeader)[sessionCookie] : undefined),
      routedToSite: (method, path) => app.findRoute({ method, url: path })?.params['*'] === path.slice(1),
      signInAnswer: sendSignInPage.answer,
      currentPolicy,
      accessLine: accessLinesOn(config) ? (line) => app.log.info(line) : undefined,
      observe: metrics?.observeRequest,
      onError: (error) => app.log.error({ err: error }, 'the fast lane failed; Fastify answers instead'),
    });
  }
  app.decorate('fastLaneAnswers', lane.answered);
  app.decorate('searchReady', site.searchReady);
  if (options.waitForSearchIndex) await site.searchReady();
  return app;
}
