import { errorDetails, meResponseSchema } from '@acme/contract';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from '../api-errors.js';
import type { Config } from '../config.js';
import { isLoopbackHost } from '../environment-values.js';
import { bodilessResponses, errorResponses, zodSerialized } from '../response-schemas.js';
import { type AccessPolicy, decideAccess, isMaintainer, primaryDomains } from './access-policy.js';
import { logoSvg } from './assets.js';
import { isPlainAsciiAddress } from './email-address.js';
import { pageStylesheet } from './html.js';
import {
  type createIdentityProviderClient,
  MissingEmailError,
  newSignInChecks,
  type SignInChecks,
} from './identity-provider.js';
import { isAllowed } from './request-access.js';
import { safeReturnPath } from './return-path.js';
import { cookieNames, cookieOptions, hashSessionId, newSessionId, type SessionCookieCodec } from './session-cookie.js';
import type { SessionService } from './session-service.js';
import { limitSignIns } from './sign-in-limit.js';
import type { SignInProblem } from './sign-in-page.js';
import type { SendSignInPage } from './sign-in-response.js';

/** Another loopback name for PUBLIC_URL's loopback host, on the same port (`127.0.0.1:3000` for `localhost:3000`). */
function isLoopbackAlias(host: string, publicUrl: URL): boolean {
  if (!isLoopbackHost(publicUrl.hostname)) return false;
  let requested: URL;
  try {
    requested = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return false;
  }
  return requested.host !== publicUrl.host && requested.port === publicUrl.port && isLoopbackHost(requested.hostname);
}

/** What the sealed attempt cookie carries from /auth/login to the callback; `startedAt` in ms since the epoch. */
type SignInAttempt = SignInChecks & { next: string; startedAt: number };

const signInAttemptSeconds = 600;
/** A sign-out's body is never read; the gate page's form sends none, so a few kilobytes is generous. */
const signOutBodyLimit = 16 * 1024;
/**
 * A refused account's session only shows who is signed in and offers another account: it ends after an hour, so
 * strangers' sign-ins do not pile up rows for the idle timeout's whole week.
 */
const refusedSessionSeconds = 3600;

/** A whole attempt cookie, started within its ten minutes: the server, not only the browser's Max-Age, ends it. */
function isSignInAttempt(value: unknown, now: number): value is SignInAttempt {
  if (!value || typeof value !== 'object') return false;
  const attempt = value as Record<string, unknown>;
  const startedAt = attempt.startedAt;
  return (
    ['state', 'nonce', 'codeVerifier', 'next'].every((key) => typeof attempt[key] === 'string') &&
    typeof startedAt === 'number' &&
    // A minute's grace for the clocks of instances behind one balancer: the attempt is sealed, so nobody forged it.
    startedAt <= now + 60_000 &&
    now - startedAt <= signInAttemptSeconds * 1000
  );
}

/** Which readable problem an exception from the token exchange is; the details go to the log. */
function problemFrom(error: unknown): SignInProblem {
  if (error instanceof MissingEmailError) return 'no-email';
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (/"state"/.test(cause.message)) return 'state-mismatch';
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError' || cause.message === 'fetch failed') {
      return 'provider-unavailable';
    }
  }
  return 'failed';
}

export async function authRoutes(
  app: FastifyInstance,
  options: {
    config: Config;
    sessions: SessionService;
    sessionCookies: SessionCookieCodec;
    currentPolicy: () => AccessPolicy;
    /** Counts sign-in requests across instances (the limits' store); without it, this instance counts alone. */
    signInCounts?: FastifyRateLimitStoreCtor | undefined;
    identityProvider: ReturnType<typeof createIdentityProviderClient>;
    sendSignInPage: SendSignInPage;
  },
) {
  const { config, sessions, sessionCookies, currentPolicy, identityProvider, sendSignInPage, signInCounts } = options;
  const names = cookieNames(config);
  const publicOrigin = config.publicUrl.origin;

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  const showSignInPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    problem?: SignInProblem,
    returnPath?: string,
  ) => sendSignInPage(request, reply, { status, problem, forceHtml: true, returnPath });

  /** The sign-in attempt this browser started, when its cookie is ours, unexpired and whole. */
  const attemptOf = (request: FastifyRequest): SignInAttempt | undefined => {
    const rawAttempt = request.cookies[names.signInAttempt];
    const unsigned = rawAttempt ? request.unsignCookie(rawAttempt) : undefined;
    try {
      const attempt: unknown = unsigned?.valid && unsigned.value ? JSON.parse(unsigned.value) : undefined;
      return isSignInAttempt(attempt, Date.now()) ? attempt : undefined;
    } catch {
      return undefined;
    }
  };

  app.get('/auth/assets/page.css', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(pageStylesheet),
  );
  app.get('/auth/assets/logo.svg', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('image/svg+xml').send(logoSvg),
  );

  app.get<{ Querystring: { next?: string; switch?: string } }>('/auth/login', async (request, reply) => {
    // The attempt cookie must be set on the host the provider sends the reader back to: a reader who opened the
    // development server as 127.0.0.1 (or [::1]) while PUBLIC_URL says localhost starts again on PUBLIC_URL's host.
    // Only between loopback names, so a proxy that rewrites Host can never make this a loop.
    if (isLoopbackAlias(request.host, config.publicUrl)) {
      // Only the query is carried over: a request line may name a whole URL (`GET http://elsewhere/auth/login`).
      const { search } = new URL(request.url, config.publicUrl);
      return noStore(reply).redirect(new URL(`/auth/login${search}`, config.publicUrl).href, 303);
    }
    const next = safeReturnPath(request.query.next);
    const checks = newSignInChecks();
    let authorizationUrl: URL;
    try {
      authorizationUrl = await identityProvider.authorizationUrl({
        checks,
        switchAccount: request.query.switch === '1',
      });
    } catch (error) {
      request.log.error({ err: error }, 'could not reach the identity provider to start sign-in');
      return showSignInPage(request, reply, 503, 'provider-unavailable', next);
    }
    const attempt: SignInAttempt = { ...checks, next, startedAt: Date.now() };
    reply.setCookie(names.signInAttempt, JSON.stringify(attempt), {
      ...cookieOptions(config, signInAttemptSeconds),
      signed: true,
    });
    return noStore(reply).redirect(authorizationUrl.href, 303);
  });

  // Coming back from the provider, limited per address: each return is a token request to the provider.
  await app.register(async (signIn) => {
    await limitSignIns(signIn, {
      perMinute: config.signInRequestsPerMinute,
      store: signInCounts,
      answer: (request, reply, retryAfterSeconds) =>
        showSignInPage(
          request,
          reply.header('retry-after', String(retryAfterSeconds)),
          429,
          'too-many-attempts',
          safeReturnPath(attemptOf(request)?.next),
        ),
    });
    signIn.get<{ Querystring: { error?: string } }>('/auth/callback', async (request, reply) => {
      const attempt = attemptOf(request);
      reply.clearCookie(names.signInAttempt, cookieOptions(config));
      // A cancelled or failed sign-in offers to try again from the page the reader came from (checked again: ours only).
      const returnPath = attempt ? safeReturnPath(attempt.next) : undefined;
      const refuse = (status: number, problem: SignInProblem) =>
        showSignInPage(request, reply, status, problem, returnPath);
      if (request.query.error) {
        request.log.info({ error: request.query.error }, 'sign-in refused by the identity provider');
        return refuse(401, request.query.error === 'access_denied' ? 'cancelled' : 'failed');
      }
      if (!attempt) return refuse(400, 'expired');

      let identity: Awaited<ReturnType<typeof identityProvider.finishSignIn>>;
      try {
        identity = await identityProvider.finishSignIn(new URL(request.url, config.publicUrl), attempt);
      } catch (error) {
        request.log.warn({ err: error }, 'sign-in callback rejected');
        return refuse(401, problemFrom(error));
      }

      if (!isPlainAsciiAddress(identity.email)) {
        request.log.info({ email: identity.email }, 'sign-in refused: the address is not plain ASCII');
        // Still the account's address now: its earlier sessions and tokens are judged by it, and refused with it.
        const { issuer, subject, email, emailVerified } = identity;
        await sessions.recordSignIn({
          issuer,
          subject,
          email,
          emailVerified,
          hostedDomain: identity.hostedDomain ?? null,
        });
        return refuse(403, 'non-ascii-email');
      }

      // A fresh id at every sign-in: a session id planted before sign-in is never promoted.
      if (request.access.state === 'signed-in') await sessions.end(request.access.idHash);
      const sessionId = newSessionId();
      const allowed = decideAccess(currentPolicy(), identity).allowed;
      const lifetimeMs = allowed ? config.sessionAbsoluteTimeoutMs : refusedSessionSeconds * 1000;
      const claimedThreads = await sessions.start(
        {
          idHash: hashSessionId(sessionId),
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
          emailVerified: identity.emailVerified,
          hostedDomain: identity.hostedDomain ?? null,
          name: identity.name ?? null,
          expiresAt: new Date(Date.now() + lifetimeMs),
        },
        { claimLegacyRows: allowed },
      );
      request.log.info({ email: identity.email, allowed, claimedThreads }, 'signed in');
      reply.setCookie(
        names.session,
        sessionCookies.valueOf(sessionId),
        cookieOptions(config, Math.floor(lifetimeMs / 1000)),
      );
      return noStore(reply).redirect(safeReturnPath(attempt.next), 303);
    });
  });

  // Signing out needs no body, so none is parsed: the gate page's form sends an empty one, a script may send anything
  // (broken JSON, XML, multipart), and none of it may keep a person signed in. A body larger than any form is refused.
  await app.register(async (signOut) => {
    signOut.removeAllContentTypeParsers();
    signOut.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: signOutBodyLimit }, (_request, _body, done) =>
      done(null),
    );
    // Its answers have no body but a refusal's. A browser's form goes back to the page it was on (`next`, ours only):
    // "Logout signs out and reloads".
    signOut.post('/auth/logout', zodSerialized({ response: bodilessResponses }), async (request, reply) => {
      if (request.headers.origin !== publicOrigin) {
        return sendApiError(reply, 'forbidden:origin', errorDetails.guard.signOutFromOurPages);
      }
      if (request.access.state === 'signed-in') await sessions.end(request.access.idHash);
      reply.clearCookie(names.session, cookieOptions(config));
      // The hashed script chunks hold the docs' text and are cached for a year: a browser signed out forgets them too.
      reply.header('clear-site-data', '"cache"');
      if (request.headers.accept?.includes('text/html')) {
        const { next } = request.query as { next?: unknown };
        return noStore(reply).redirect(safeReturnPath(next), 303);
      }
      return noStore(reply).code(204).send();
    });
  });

  // A stranger (401) and a refused account (403) get their state too: the sign-in gate of the site reads it.
  const meSchema = zodSerialized({
    response: { 200: meResponseSchema, 401: meResponseSchema, 403: meResponseSchema, ...errorResponses },
  });
  app.get('/api/me', meSchema, async (request, reply) => {
    const access = request.access;
    noStore(reply);
    const policy = currentPolicy();
    if (access.state === 'signed-out') {
      return reply.code(401).send({ state: 'signed-out', primaryDomains: primaryDomains(policy) });
    }
    const { email, emailVerified, hostedDomain } = access.session;
    return reply.code(isAllowed(access) ? 200 : 403).send({
      state: isAllowed(access) ? 'allowed' : 'not-allowed',
      email,
      name: access.session.name,
      primaryDomains: primaryDomains(policy),
      maintainer:
        isAllowed(access) && isMaintainer(policy, { email, emailVerified, hostedDomain: hostedDomain ?? undefined }),
    });
  });
}
