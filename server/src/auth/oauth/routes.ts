import formBody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findOAuthClient } from '../../store/oauth.js';
import { addressKeyOf } from '../address-key.js';
import { isAllowed } from '../request-access.js';
import { authorizationServerOf, protectedResourceOf } from '../tokens/resource-metadata.js';
import { checkAuthorizationRequest } from './authorization-request.js';
import { findClient, oauthClientIds } from './client-id.js';
import { clientFromRegistration, maxRegistrationBytes, registrationResponse } from './client-registration.js';
import { answerConsent } from './consent.js';
import { renderAuthorizationProblemPage, renderConsentPage } from './consent-page.js';
import { OAuthError, sendOAuthError } from './oauth-error.js';
import { authorizationServerMetadata } from './server-metadata.js';
import { exchangeAuthorizationCode, refreshGrant } from './token-grant.js';

/** Registrations one address may make a minute: enough for a team behind one NAT re-adding agents, not for a flood. */
const registrationsPerMinute = 10;
/**
 * Requests one address may make a minute to the authorization and token endpoints, which anyone may call and which
 * read the database: an agent refreshes once an hour, a reader consents a few times; a script guessing codes stops.
 */
const endpointRequestsPerMinute = 120;

/** Errors before a handler (a body too large, not JSON, the limit) as RFC 6749 JSON; anything else to the app. */
function answerInOAuthTerms(code: 'invalid_request' | 'invalid_client_metadata') {
  return (error: FastifyError | OAuthError, _request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    const status = error.statusCode ?? 500;
    if (status >= 500) throw error;
    return sendOAuthError(reply, new OAuthError(code, error.message, status));
  };
}

/** A GET at an endpoint that takes POST alone (RFC 6749 §3.2): 405 in OAuth's terms, not the site's sign-in page. */
const postOnly = (_request: FastifyRequest, reply: FastifyReply) =>
  sendOAuthError(reply.header('allow', 'POST'), new OAuthError('invalid_request', 'This endpoint takes POST.', 405));

/**
 * The handbook's OAuth 2.1 authorization server for coding agents (MCP authorization): metadata, dynamic client
 * registration, the reader's consent behind the sign-in gate, and the token endpoint. Access granted here is a row
 * of the personal tokens' table, so it is listed, revoked and checked against the policy as a personal token is.
 */
export const oauthRoutes = fp(
  async (app) => {
    const { config, store, accessPolicy, signInPage, limits, signingKey } = app;
    const { db } = store;
    const { publicUrl } = config;
    const currentPolicy = () => accessPolicy.current();
    const issuer = authorizationServerOf(publicUrl);
    const resource = protectedResourceOf(publicUrl);
    const metadata = authorizationServerMetadata(publicUrl);
    const clientIds = oauthClientIds(signingKey('oauth client id'));
    const clientOf = (clientId: string) =>
      findClient(clientId, { clientIds, findStored: (id) => findOAuthClient(db, { id }), now: new Date() });
    const check = (parameters: unknown) =>
      checkAuthorizationRequest((parameters ?? {}) as Record<string, unknown>, { findClient: clientOf, resource });
    const grantOptions = () => ({ db, findClient: clientOf, currentPolicy, resource, now: new Date() });
    /**
     * At most `max` requests a minute from one address to every route of `scope`, counted across instances in the
     * limits' store (an embedded store counts on this instance alone) under a key of its own: that store counts every
     * limit of an address, the sign-in's included, by its key.
     */
    const registerAddressLimit = (scope: FastifyInstance, name: string, max: number, what: string) =>
      scope.register(rateLimit, {
        global: true,
        ...(limits.perMinuteStore && { store: limits.perMinuteStore }),
        max,
        timeWindow: '1 minute',
        keyGenerator: (request) => `${name}:ip:${addressKeyOf(request.ip)}`,
        errorResponseBuilder: () =>
          new OAuthError('temporarily_unavailable', `Too many ${what} from this address; wait a minute.`, 429),
      });

    app.get('/.well-known/oauth-authorization-server', async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(metadata),
    );

    await app.register(async (registration) => {
      await registerAddressLimit(registration, 'oauth-register', registrationsPerMinute, 'registrations');
      registration.setErrorHandler(answerInOAuthTerms('invalid_client_metadata'));
      registration.get('/oauth/register', postOnly);
      registration.post('/oauth/register', { bodyLimit: maxRegistrationBytes }, async (request, reply) => {
        // Nothing is stored: the client_id carries the registration, and a reader's consent stores the client.
        const client = clientFromRegistration(request.body);
        const registeredAt = new Date();
        const response = registrationResponse(clientIds.issue(client, registeredAt), client, registeredAt);
        return reply.code(201).header('cache-control', 'no-store').send(response);
      });
    });

    await app.register(async (endpoints) => {
      await registerAddressLimit(endpoints, 'oauth', endpointRequestsPerMinute, 'requests');
      await endpoints.register(formBody, { bodyLimit: 16 * 1024 });
      endpoints.setErrorHandler(answerInOAuthTerms('invalid_request'));

      endpoints.get('/oauth/authorize', async (request, reply) => {
        const checked = await check(request.query);
        if (checked.kind !== 'valid') return problemPage(reply, 400, checked.message);
        const access = request.access;
        if (access.state !== 'signed-in' || !isAllowed(access)) {
          return signInPage(request, reply, {
            status: access.state === 'signed-in' ? 403 : 401,
            returnPath: request.url,
            forceHtml: true,
          });
        }
        return consentPage(
          reply,
          checked.request.redirectUri,
          renderConsentPage({ ...checked, email: access.session.email }),
        );
      });

      endpoints.post('/oauth/authorize', async (request, reply) => {
        if (request.headers.origin !== publicUrl.origin) {
          return problemPage(reply, 403, 'The answer did not come from the handbook’s own consent page.');
        }
        const access = request.access;
        if (access.state !== 'signed-in' || !isAllowed(access)) {
          return problemPage(
            reply,
            403,
            'Sign in to the handbook with an allowed account, then add the application again.',
          );
        }
        const checked = await check(request.body);
        if (checked.kind !== 'valid') return problemPage(reply, 400, checked.message);
        const decision = (request.body as { decision?: unknown }).decision;
        if (decision !== 'allow' && decision !== 'deny') return problemPage(reply, 400, 'Choose Allow or Deny.');
        const outcome = await answerConsent(db, {
          request: checked.request,
          session: access.session,
          allow: decision === 'allow',
          issuer,
          now: new Date(),
        });
        if (outcome.kind === 'redirect')
          return reply.header('cache-control', 'no-store').redirect(outcome.location, 303);
        const page = renderConsentPage({ ...checked, email: access.session.email, problem: outcome.message });
        return consentPage(reply.code(409), checked.request.redirectUri, page);
      });

      endpoints.get('/oauth/token', postOnly);
      endpoints.post('/oauth/token', async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const grant =
          body.grant_type === 'authorization_code'
            ? exchangeAuthorizationCode
            : body.grant_type === 'refresh_token'
              ? refreshGrant
              : undefined;
        if (!grant) {
          const error = body.grant_type === undefined ? 'invalid_request' : 'unsupported_grant_type';
          throw new OAuthError(error, 'grant_type is authorization_code or refresh_token.');
        }
        const tokens = await grant(body, grantOptions());
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      });
    });
  },
  {
    name: 'oauth-routes',
    fastify: '5.x',
    encapsulate: true,
    // The consent page stands behind the sign-in gate: the access of every request and the sign-in page.
    dependencies: ['auth'],
    decorators: {
      fastify: ['config', 'store', 'accessPolicy', 'signInPage', 'limits', 'signingKey'],
      request: ['access'],
    },
  },
);

function problemPage(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderAuthorizationProblemPage(message));
}

/**
 * The consent page, with the CSP's form-action widened to the client's redirect: browsers hold the redirect that
 * follows a form's submission to form-action, and ours is 'self' everywhere else. An https or loopback address is
 * allowed by its origin; a native app's private-use scheme (`cursor:`, `com.example.agent:`) has no origin (`null`,
 * which allows nothing), so by its scheme.
 */
function consentPage(reply: FastifyReply, redirectUri: string, html: string) {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string') {
    const { protocol, origin } = new URL(redirectUri);
    const source = protocol === 'https:' || protocol === 'http:' ? origin : protocol;
    reply.header(
      'content-security-policy',
      policy.replace(/form-action [^;]*/, (directive) => `${directive} ${source}`),
    );
  }
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
