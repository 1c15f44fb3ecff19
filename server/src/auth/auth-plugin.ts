import { createHmac, hkdfSync } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listLiveTokenIds } from '../store/personal-tokens.js';
import { cookieSealer } from './cookie-sealer.js';
import { createDevelopmentProvider } from './dev-idp/provider.js';
import { developmentProviderRoutes } from './dev-idp/routes.js';
import { type ClientCredentials, createIdentityProviderClient } from './identity-provider.js';
import { sessionSecretOf } from './kept-secret.js';
import { type AccessResolver, createAccessResolver, registerRequestAccess } from './request-access.js';
import { authRoutes } from './routes.js';
import { sessionCookieCodec } from './session-cookie.js';
import { createSessionService } from './session-service.js';
import { createSignInResponder, type SendSignInPage } from './sign-in-response.js';
import { createBearerFailureGuard } from './tokens/bearer-failures.js';
import { resourceMetadataUrlOf } from './tokens/resource-metadata.js';
import { registerTokenAccess } from './tokens/token-access.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who a session cookie names: at once from the session cache (`known`), or from the store (`resolve`). */
    accessResolver: AccessResolver;
    /** What a request without an allowed session gets: the sign-in page, or a 401/403 for anything but a browser. */
    signInPage: SendSignInPage;
    /** A key derived from SESSION_SECRET for one purpose (`label`): the same on every instance, distinct per purpose. */
    signingKey: (label: string) => Buffer;
  }
}

/** The development IdP's routes when no OIDC issuer is configured; the client credentials to sign in with. */
async function identityProviderCredentials(app: FastifyInstance, sessionSecret: string): Promise<ClientCredentials> {
  const { config } = app;
  const { identityProvider } = config;
  if (identityProvider.kind !== 'development') {
    return { clientId: identityProvider.clientId, clientSecret: identityProvider.clientSecret };
  }
  const idp = createDevelopmentProvider({
    issuer: identityProvider.issuer,
    redirectUri: new URL('/auth/callback', config.publicUrl).href,
    environment: config.environment,
    workspaceDomains: () => app.accessPolicy.current().domains,
    clientSecret: createHmac('sha256', sessionSecret).update('development sign-in client').digest('base64url'),
  });
  await app.register(developmentProviderRoutes, { idp, publicUrl: config.publicUrl });
  return idp.client;
}

/**
 * Who is asking, on every request: the session cookie (sealed with the session secret), else on the routes that take
 * one a personal access token, each checked against the access policy in force; then signing in and out.
 */
export const authPlugin = fp(
  async (app) => {
    const { config, store } = app;
    const currentPolicy = app.accessPolicy.current;
    const sessionSecret = sessionSecretOf(config, app.log);
    await app.register(fastifyCookie, { secret: cookieSealer(sessionSecret) });
    const sessions = createSessionService({ db: store.db, config });
    const sessionCookies = sessionCookieCodec(sessionSecret);
    const accessResolver = createAccessResolver({ sessions, currentPolicy, cookies: sessionCookies });
    registerRequestAccess(app, { config, accessResolver });
    const resourceMetadataUrl = resourceMetadataUrlOf(config.publicUrl);
    registerTokenAccess(app, {
      db: store.db,
      currentPolicy,
      resourceMetadataUrl,
      failures: createBearerFailureGuard({
        perMinute: config.tokenFailuresPerMinute,
        liveTokenIds: () => listLiveTokenIds(store.db, { now: new Date() }),
      }),
    });
    app.decorate('accessResolver', accessResolver);
    app.decorate('signingKey', (label: string) =>
      Buffer.from(hkdfSync('sha256', sessionSecret, 'acme-handbook', label, 32)),
    );

    const credentials = await identityProviderCredentials(app, sessionSecret);
    const sendSignInPage = createSignInResponder({
      currentPolicy,
      resourceMetadataUrl,
      developmentSignIn: config.identityProvider.kind === 'development',
    });
    app.decorate('signInPage', sendSignInPage);
    await app.register(authRoutes, {
      config,
      sessions,
      sessionCookies,
      currentPolicy,
      signInCounts: app.limits.perMinuteStore,
      identityProvider: createIdentityProviderClient(config, credentials),
      sendSignInPage,
    });
  },
  {
    name: 'auth',
    fastify: '5.x',
    dependencies: ['store', 'site', 'access-policy', 'limits'],
    decorators: { fastify: ['config', 'store', 'site', 'accessPolicy', 'limits'] },
  },
);
