import { hashSessionId } from '../src/auth/session-cookie.js';
import type { Database } from '../src/store/database.js';
import { createSession, type NewSession } from '../src/store/sessions.js';

/** One allowed reader's identity as the rows made in their session carry it (tokens, OAuth codes and grants). */
export const adaIdentity = {
  reader: 'oidc:https://accounts.acme.example#ada',
  issuer: 'https://accounts.acme.example',
  subject: 'ada',
  email: 'ada@acme.example',
  emailVerified: true,
  hostedDomain: 'acme.example',
};

/**
 * Stores the session `sessionId` of an allowed reader (reader@acme.dev) straight in the database, for an hour unless
 * `overrides` say otherwise: what an attack test needs, without signing in.
 */
export function storeReaderSession(db: Database, sessionId: string, overrides: Partial<NewSession> = {}) {
  return createSession(db, {
    idHash: hashSessionId(sessionId),
    issuer: 'https://accounts.acme.dev',
    subject: 'reader',
    email: 'reader@acme.dev',
    emailVerified: true,
    hostedDomain: 'acme.dev',
    name: 'reader',
    expiresAt: new Date(Date.now() + 3_600_000),
    ...overrides,
  });
}
