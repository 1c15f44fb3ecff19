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

export function registerViewer(
  app: FastifyInstance,
  options: { config: Config; sessions: SessionService; currentPolicy: () => AccessPolicy },
) {
  const { config, sessions, currentPolicy } = options;
  const sessionCookie = cookieNames(config).session;
  const signedOut: Viewer = { state: 'signed-out' };

  async function resolveViewer(sessionId: string): Promise<Viewer> {
    const idHash = hashSessionId(sessionId);
    const session = await sessions.find(idHash);
    if (!session) return signedOut;
    const access = decideAccess(currentPolicy(), {
      email: session.email,
      emailVerified: session.emailVerified,
      hostedDomain: session.hostedDomain ?? undefined,
    });
    return { state: 'signed-in', session, idHash, access };
  }

  app.decorateRequest('viewer', null as never);
  // Callback style, so a request without a session (most of what strangers send) settles without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const sessionId = request.cookies[sessionCookie];
    if (!sessionId || sessionId.length > 100) {
      request.viewer = signedOut;
      return done();
    }
    resolveViewer(sessionId).then((viewer) => {
      request.viewer = viewer;
      done();
    }, done);
  });
}
