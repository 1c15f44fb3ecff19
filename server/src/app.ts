import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { createDevelopmentProvider } from './auth/dev-idp/provider.js';
import { developmentProviderRoutes } from './auth/dev-idp/routes.js';
import { createIdentityProviderClient } from './auth/identity-provider.js';
import { createPolicySource } from './auth/policy-source.js';
import { authRoutes } from './auth/routes.js';
import { createSessionService } from './auth/session-service.js';
import { createSignInResponder } from './auth/sign-in-response.js';
import { registerViewer } from './auth/viewer.js';
import { followBuild } from './build-follower.js';
import type { Config } from './config.js';
import { createChatModel, createEmbeddingModel } from './copilot/model/provider.js';
import { createImageTextReader } from './copilot/ocr/image-text-reader.js';
import { readImageText } from './copilot/ocr/read-image-text.js';
import { copilotRoutes } from './copilot/routes.js';
import { contentSecurityPolicyDirectives, inlineScriptHashes } from './gate/content-security-policy.js';
import { listSiteFiles } from './gate/site-files.js';
import { siteRoutes } from './gate/site-routes.js';
import { followSearchIndex } from './search/index-follower.js';
import { searchRoutes } from './search/routes.js';
import { createSemanticIndex } from './search/semantic-index.js';
import { openStore, type Store } from './store/database.js';
import { pruneQuestions } from './store/questions.js';

function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  if (config.environment !== 'development') return { level: config.logLevel };
  return { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } };
}

export type BuildOptions = {
  /** An already open store (tests share one); otherwise the app opens and closes its own. */
  store?: Store;
  /** Benchmarks only: serve the site without the gate, to measure what the gate costs. Never set by config. */
  ungatedForBenchmark?: boolean;
};

/** Builds the whole server from a parsed config; tests call this with their own config. */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({ logger: loggerOptions(config), trustProxy: false, return503OnClosing: true });
  const store =
    options.store ??
    (await openStore({ databaseUrl: config.databaseUrl, dataDirectory: path.join(config.dataDirectory, 'pglite') }));
  if (!options.store) app.addHook('onClose', () => store.close());

  const policySource = createPolicySource(config.accessSettings, config.accessPolicyFile, (message) =>
    app.log.error(message),
  );
  const currentPolicy = () => policySource.current();
  // What the gate serves by (the file list, the CSP hashes) follows a rebuild while the server runs, from one look at
  // the build and switched together; the docs search follows it too, indexed in the background.
  const site = followBuild(
    config.siteDirectory,
    () => {
      const files = listSiteFiles(config.siteDirectory);
      return {
        files,
        scriptHashes: inlineScriptHashes(config.siteDirectory, files),
      };
    },
    {
      // A build without its 404 page is half-written: the server keeps the previous one.
      usable: (build) => build.files.has('/404.html'),
      onKeptPrevious: (error) => app.log.warn({ reason: (error as Error).message }, 'keeping the previous site build'),
    },
  );

  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: contentSecurityPolicyDirectives([() => site.current().scriptHashes.join(' ')]),
    },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
  const search = followSearchIndex(config.siteDirectory, {
    onKeptPrevious: (error) => app.log.warn({ reason: (error as Error).message }, 'keeping the previous search index'),
  });
  const sessions = createSessionService({ db: store.db, config });
  registerViewer(app, { config, sessions, currentPolicy });

  let credentials: { clientId: string; clientSecret: string };
  const { identityProvider } = config;
  if (identityProvider.kind === 'development') {
    const idp = createDevelopmentProvider({
      issuer: identityProvider.issuer,
      redirectUri: new URL('/auth/callback', config.publicUrl).href,
      environment: config.environment,
      workspaceDomains: () => currentPolicy().domains,
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
  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  await app.register(authRoutes, {
    config,
    sessions,
    currentPolicy,
    identityProvider: createIdentityProviderClient(config, credentials),
    sendSignInPage,
  });
  const publicOrigin = config.publicUrl.origin;
  const embeddingModel = config.model ? createEmbeddingModel(config.model) : undefined;
  const semanticIndex =
    embeddingModel === undefined
      ? undefined
      : createSemanticIndex({
          model: embeddingModel,
          currentSections: () => search.current().sections,
          onError: (message, error) => app.log.warn({ reason: (error as Error).message }, message),
        });
  if (semanticIndex) app.addHook('onReady', () => void semanticIndex.refresh());
  const pruneQuestionLog = () =>
    pruneQuestions(store.db, new Date(Date.now() - config.questionLogDays * 86_400_000)).catch((error: unknown) =>
      app.log.error({ reason: (error as Error).message }, 'could not prune the questions log'),
    );
  const pruning = setInterval(pruneQuestionLog, 6 * 3_600_000).unref();
  app.addHook('onReady', async () => void (await pruneQuestionLog()));
  app.addHook('onClose', async () => clearInterval(pruning));
  const imageTextReader = createImageTextReader();
  app.addHook('onClose', () => imageTextReader.close());
  await app.register(copilotRoutes, {
    publicOrigin,
    db: store.db,
    ...config.askLimits,
    currentIndex: () => search.current(),
    semanticSearch: semanticIndex?.search,
    readImageText: (images, signal) => readImageText(imageTextReader, images, signal, app.log),
    model: config.model && {
      languageModel: createChatModel(config.model),
      timeoutMs: config.model.timeoutMs,
      vision: config.model.vision,
      maxOutputTokens: config.model.maxOutputTokens,
    },
  });
  await app.register(searchRoutes, {
    publicOrigin,
    currentEngine: () => search.current(),
    requestsPerMinute: config.searchRequestsPerMinute,
  });
  await app.register(siteRoutes, {
    siteDirectory: config.siteDirectory,
    files: () => site.current().files,
    sendSignInPage,
    gated: !options.ungatedForBenchmark,
  });
  return app;
}
