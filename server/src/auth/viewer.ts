import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import type { SessionRow } from '../store/schema.js';
import { type AccessDecision, type AccessPolicy, decideAccess } from './access-policy.js';
import { cookieNames, hashSessionId, type SessionCookieCodec } from './session-cookie.js';
import type { SessionService } from './session-service.js';

/**
 * Who is asking: resolved once per request from the session cookie, with the access policy applied now. On the few
 * routes a script may use, a personal access token stands in for the session (tokens/token-viewer.ts): its owner's
 * identity as a session row, and `personalTokenId` set.
 */
export type Viewer =
  | { state: 'signed-out' }
  | { state: 'signed-in'; session: SessionRow; idHash: string; access: AccessDecision; personalTokenId?: string };

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer;
  }
}

export function isAllowed(viewer: Viewer): boolean {
  return viewer.state === 'signed-in' && viewer.access.allowed;
}

const signedOut: Viewer = { state: 'signed-out' };
/** As many as the session cache holds; when full the least recently sent cookie goes first. */
const maxKeptIdHashes = 10_000;

/**
 * Turns a session cookie's value into a Viewer. `known` answers without waiting, from the session cache alone, or
 * says it cannot (undefined); `resolve` may read the store. A value whose tag we did not make is signed out at once.
 * A row's decision is kept with the row for as long as the policy object in force is the same one, so a changed
 * policy file is applied on the next request.
 */
export function createViewerResolver(options: {
  sessions: SessionService;
  currentPolicy: () => AccessPolicy;
  cookies: SessionCookieCodec;
}) {
  const { sessions, currentPolicy, cookies } = options;
  const viewers = new WeakMap<SessionRow, { policy: AccessPolicy; viewer: Viewer }>();
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

  function viewerOf(session: SessionRow, idHash: string): Viewer {
    const policy = currentPolicy();
    const kept = viewers.get(session);
    if (kept?.policy === policy) return kept.viewer;
    const access = decideAccess(policy, {
      email: session.email,
      emailVerified: session.emailVerified,
      hostedDomain: session.hostedDomain ?? undefined,
    });
    const viewer: Viewer = { state: 'signed-in', session, idHash, access };
    viewers.set(session, { policy, viewer });
    return viewer;
  }

  return {
    known(cookieValue: string | undefined): Viewer | undefined {
      const idHash = idHashOf(cookieValue);
      if (cookieValue === undefined || idHash === undefined) return signedOut;
      const session = sessions.peek(idHash);
      if (!session) return sessions.isGone(idHash) ? signedOut : undefined;
      keepHash(cookieValue, idHash);
      return viewerOf(session, idHash);
    },
    async resolve(cookieValue: string | undefined): Promise<Viewer> {
      const idHash = idHashOf(cookieValue);
      if (cookieValue === undefined || idHash === undefined) return signedOut;
      const session = await sessions.find(idHash);
      if (!session) return signedOut;
      keepHash(cookieValue, idHash);
      return viewerOf(session, idHash);
    },
  };
}

export type ViewerResolver = ReturnType<typeof createViewerResolver>;

export function registerViewer(app: FastifyInstance, options: { config: Config; viewers: ViewerResolver }) {
  const sessionCookie = cookieNames(options.config).session;
  app.decorateRequest('viewer', null as never);
  // Callback style, so a request whose viewer is known at once (strangers, cached sessions) settles without a promise.
  app.addHook('onRequest', function resolveViewer(request, _reply, done) {
    const cookieValue = request.cookies[sessionCookie];
    const known = options.viewers.known(cookieValue);
    if (known) {
      request.viewer = known;
      return done();
    }
    options.viewers.resolve(cookieValue).then((viewer) => {
      request.viewer = viewer;
      done();
    }, done);
  });
}
