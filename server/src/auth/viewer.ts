import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../store/database.js';
import { deleteSession, findSessionByIdHash, touchSession } from '../store/sessions.js';
import { type AccessDecision, type AccessPolicy, decideAccess } from './access-policy.js';
import { cookieNames, hashSessionId } from './session-cookie.js';

type SessionRow = NonNullable<Awaited<ReturnType<typeof findSessionByIdHash>>>;

/** Who is asking: resolved once per request from the session cookie, with the access policy applied now. */
export type Viewer =
  | { state: 'signed-out' }
  | { state: 'signed-in'; session: SessionRow; idHash: string; access: AccessDecision };

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer;
  }
}

/** Writing last-seen on every request would cost a write per file; once a minute keeps idle expiry accurate enough. */
const touchIntervalMs = 60_000;

export function isAllowed(viewer: Viewer): boolean {
  return viewer.state === 'signed-in' && viewer.access.allowed;
}

export function registerViewer(
  app: FastifyInstance,
  options: { config: Config; db: Database; currentPolicy: () => AccessPolicy },
) {
  const { config, db, currentPolicy } = options;
  const sessionCookie = cookieNames(config).session;
  const signedOut: Viewer = { state: 'signed-out' };

  async function resolveViewer(request: FastifyRequest): Promise<Viewer> {
    const sessionId = request.cookies[sessionCookie];
    if (!sessionId || sessionId.length > 100) return signedOut;
    const idHash = hashSessionId(sessionId);
    const session = await findSessionByIdHash(db, { idHash });
    if (!session) return signedOut;
    const now = Date.now();
    const idleSince = now - session.lastSeenAt.getTime();
    if (session.expiresAt.getTime() <= now || idleSince >= config.sessionIdleTimeoutMs) {
      await deleteSession(db, { idHash });
      return signedOut;
    }
    if (idleSince >= touchIntervalMs) await touchSession(db, { idHash, lastSeenAt: new Date(now) });
    const access = decideAccess(currentPolicy(), {
      email: session.email,
      emailVerified: session.emailVerified,
      hostedDomain: session.hostedDomain ?? undefined,
    });
    return { state: 'signed-in', session, idHash, access };
  }

  app.decorateRequest('viewer', null as never);
  app.addHook('onRequest', async (request) => {
    request.viewer = await resolveViewer(request);
  });
}
