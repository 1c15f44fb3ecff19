import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { SessionRow } from '../store/schema.js';
import { type AccessDecision, type AccessPolicy, decideAccess } from './access-policy.js';
import { cookieNames, hashSessionId } from './session-cookie.js';
import type { SessionService } from './session-service.js';

/** Who is asking: resolved once per request from the session cookie, with the access policy applied now. */
export type Viewer =
  | { state: 'signed-out' }
  | { state: 'signed-in'; session: SessionRow; idHash: string; access: AccessDecision };

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer;
  }
}

export function isAllowed(viewer: Viewer): boolean {
  return viewer.state === 'signed-in' && viewer.access.allowed;
}

const signedOut: Viewer = { state: 'signed-out' };
/** As many as the session cache holds; when full the kept hashes start afresh. */
const maxKeptIdHashes = 10_000;

/**
 * Turns a session id into a Viewer. `known` answers without waiting, from the session cache alone, or says it cannot
 * (undefined); `resolve` may read the store. A row's decision is kept with the row for as long as the policy object
 * in force is the same one, so a changed policy file is applied on the next request.
 */
export function createViewerResolver(options: { sessions: SessionService; currentPolicy: () => AccessPolicy }) {
  const { sessions, currentPolicy } = options;
  const viewers = new WeakMap<SessionRow, { policy: AccessPolicy; viewer: Viewer }>();
  // A reader sends the same id with every file of a page: the hash of a live session's id is kept (SHA-256 was 4 %
  // of serving a page). Ids that name no session are not kept, so strangers' cookies cannot fill it.
  const idHashes = new Map<string, string>();
  const hashOf = (sessionId: string) => idHashes.get(sessionId) ?? hashSessionId(sessionId);
  const keepHash = (sessionId: string, idHash: string) => {
    if (idHashes.has(sessionId)) return;
    if (idHashes.size >= maxKeptIdHashes) idHashes.clear();
    idHashes.set(sessionId, idHash);
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

  /** A cookie value no session could have: absent, or longer than any id we issue. */
  const noSession = (sessionId: string | undefined): sessionId is undefined => !sessionId || sessionId.length > 100;

  return {
    known(sessionId: string | undefined): Viewer | undefined {
      if (noSession(sessionId)) return signedOut;
      const idHash = hashOf(sessionId);
      const session = sessions.peek(idHash);
      if (!session) return sessions.isGone(idHash) ? signedOut : undefined;
      keepHash(sessionId, idHash);
      return viewerOf(session, idHash);
    },
    async resolve(sessionId: string | undefined): Promise<Viewer> {
      if (noSession(sessionId)) return signedOut;
      const idHash = hashOf(sessionId);
      const session = await sessions.find(idHash);
      if (!session) return signedOut;
      keepHash(sessionId, idHash);
      return viewerOf(session, idHash);
    },
  };
}

export type ViewerResolver = ReturnType<typeof createViewerResolver>;

export function registerViewer(app: FastifyInstance, options: { config: Config; viewers: ViewerResolver }) {
  const sessionCookie = cookieNames(options.config).session;
  app.decorateRequest('viewer', null as never);
  // Callback style, so a request whose viewer is known at once (strangers, cached sessions) settles without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const sessionId = request.cookies[sessionCookie];
    const known = options.viewers.known(sessionId);
    if (known) {
      request.viewer = known;
      return done();
    }
    options.viewers.resolve(sessionId).then((viewer) => {
      request.viewer = viewer;
      done();
    }, done);
  });
}
