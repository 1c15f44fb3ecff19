import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import type { SessionRow } from '../store/schema.js';
import type { SessionWithAccount } from '../store/sessions.js';
import type { AccessDecision, AccessPolicy } from './access-policy.js';
import { decideCredential, withCurrentAddress } from './account-access.js';
import { cookieNames, hashSessionId, type SessionCookieCodec } from './session-cookie.js';
import type { SessionService } from './session-service.js';

/**
 * Who is asking: resolved once per request from the session cookie, with the access policy applied now to the session's
 * address and its account's current one (the session shows the current one, account-access.ts). On the few
 * routes a script may use, a personal access token stands in for the session (tokens/token-access.ts): its reader's
 * identity as a session row, and `personalTokenId` set.
 */
export type RequestAccess =
  | { state: 'signed-out' }
  | { state: 'signed-in'; session: SessionRow; idHash: string; decision: AccessDecision; personalTokenId?: string };

declare module 'fastify' {
  interface FastifyRequest {
    access: RequestAccess;
  }
}

export function isAllowed(access: RequestAccess): boolean {
  return access.state === 'signed-in' && access.decision.allowed;
}

const signedOut: RequestAccess = { state: 'signed-out' };
/** As many as the session cache holds; when full the least recently sent cookie goes first. */
const maxKeptIdHashes = 10_000;

/**
 * Turns a session cookie's value into a RequestAccess. `known` answers without waiting, from the session cache alone, or
 * says it cannot (undefined); `resolve` may read the store. A value whose tag we did not make is signed out at once.
 * A row's decision is kept with the row for as long as the policy object in force is the same one, so a changed
 * policy file is applied on the next request.
 */
export function createAccessResolver(options: {
  sessions: SessionService;
  currentPolicy: () => AccessPolicy;
  cookies: SessionCookieCodec;
}) {
  const { sessions, currentPolicy, cookies } = options;
  const decided = new WeakMap<SessionWithAccount, { policy: AccessPolicy; access: RequestAccess }>();
  // A reader sends the same cookie with every file of a page: the id hash of a live session's cookie is kept, so its
  // tag and hash are checked once (SHA-256 alone was 4 % of serving a page). Cookies that name no session are not
  // kept, so strangers cannot fill it.
  const idHashes = new LRUCache<string, string>({ max: maxKeptIdHashes });
  /** The id hash a cookie value names; undefined for one no session could have (absent, too long, not our tag). */
  const idHashOf = (cookieValue: string | undefined) => {
    if (!cookieValue || cookieValue.length > 100) return undefined;
    const kept = idHashes.get(cookieValue);
    if (kept) return kept;
    const sessionId = cookies.sessionIdOf(cookieValue);
    return sessionId === undefined ? undefined : hashSessionId(sessionId);
  };
  const keepHash = (cookieValue: string, idHash: string) => {
    if (!idHashes.has(cookieValue)) idHashes.set(cookieValue, idHash);
  };

  function accessOf(session: SessionWithAccount, idHash: string): RequestAccess {
    const policy = currentPolicy();
    const kept = decided.get(session);
    if (kept?.policy === policy) return kept.access;
    const decision = decideCredential(policy, session);
    const access: RequestAccess = { state: 'signed-in', session: withCurrentAddress(session), idHash, decision };
    decided.set(session, { policy, access });
    return access;
  }

  return {
    known(cookieValue: string | undefined): RequestAccess | undefined {
      const idHash = idHashOf(cookieValue);
      if (cookieValue === undefined || idHash === undefined) return signedOut;
      const session = sessions.peek(idHash);
      if (!session) return sessions.isGone(idHash) ? signedOut : undefined;
      keepHash(cookieValue, idHash);
      return accessOf(session, idHash);
    },
    async resolve(cookieValue: string | undefined): Promise<RequestAccess> {
      const idHash = idHashOf(cookieValue);
      if (cookieValue === undefined || idHash === undefined) return signedOut;
      const session = await sessions.find(idHash);
      if (!session) return signedOut;
      keepHash(cookieValue, idHash);
      return accessOf(session, idHash);
    },
  };
}

export type AccessResolver = ReturnType<typeof createAccessResolver>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers the same to everyone and never asks who is asking (the health probes): a session cookie is not
     * looked up, so a probe that carries one does not fail when the database does.
     */
    sessionless?: boolean;
  }
}

export function registerRequestAccess(
  app: FastifyInstance,
  options: { config: Config; accessResolver: AccessResolver },
) {
  const sessionCookie = cookieNames(options.config).session;
  app.decorateRequest('access', null as never);
  // Callback style, so a request whose access is known at once (strangers, cached sessions) settles without a promise.
  app.addHook('onRequest', function resolveAccess(request, _reply, done) {
    const cookieValue = request.routeOptions.config.sessionless ? undefined : request.cookies[sessionCookie];
    const known = options.accessResolver.known(cookieValue);
    if (known) {
      request.access = known;
      return done();
    }
    options.accessResolver.resolve(cookieValue).then((access) => {
      request.access = access;
      done();
    }, done);
  });
}
