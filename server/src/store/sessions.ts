import { and, count, eq, gt, lte, or } from 'drizzle-orm';
import type { Database } from './database.js';
import { type SessionRow, sessions } from './schema.js';

export type { SessionRow };

export type NewSession = {
  idHash: string;
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  hostedDomain: string | null;
  name: string | null;
  expiresAt: Date;
};

/** Stores a signed-in session; `createdAt` and `lastSeenAt` start at the database's now(). */
export async function createSession(db: Database, session: NewSession): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(session).returning();
  if (!row) throw new Error(`Inserting session ${session.idHash} returned no row`);
  return row;
}

export async function findSessionByIdHash(
  db: Database,
  { idHash }: { idHash: string },
): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1);
  return row;
}

export async function touchSession(db: Database, { idHash, lastSeenAt }: { idHash: string; lastSeenAt: Date }) {
  await db.update(sessions).set({ lastSeenAt }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: Database, { idHash }: { idHash: string }) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/**
 * Removes sessions that can no longer sign anyone in: reached `expiresAt`, or idle for `idleTimeoutMs` or longer
 * (the same boundaries the request path applies). Returns how many were removed.
 */
export async function deleteExpiredSessions(
  db: Database,
  { now, idleTimeoutMs }: { now: Date; idleTimeoutMs: number },
): Promise<number> {
  const idleSince = new Date(now.getTime() - idleTimeoutMs);
  const deleted = await db
    .delete(sessions)
    .where(or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince)))
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}

/** Sessions that can still sign someone in at `now`: the same boundaries as `deleteExpiredSessions`, the other side. */
export async function countActiveSessions(
  db: Database,
  { now, idleTimeoutMs }: { now: Date; idleTimeoutMs: number },
): Promise<number> {
  const idleSince = new Date(now.getTime() - idleTimeoutMs);
  const [row] = await db
    .select({ active: count() })
    .from(sessions)
    .where(and(gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, idleSince)));
  return row?.active ?? 0;
}
