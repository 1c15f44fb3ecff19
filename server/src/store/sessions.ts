import { and, count, eq, getTableColumns, gt, lte, or } from 'drizzle-orm';
import { accountOf, type CurrentAddress, currentAddressColumns, recordSignIn } from './accounts.js';
import type { Database } from './database.js';
import { accounts, type SessionRow, sessions } from './schema.js';

export type { SessionRow };

/** A session with its account's current address (null before the account signed in since those were kept). */
export type SessionWithAccount = SessionRow & { current: CurrentAddress | null };

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

/**
 * Stores the session of a sign-in and keeps its address as the account's current one, together: no session of the
 * account is ever judged by an address older than the newest session's.
 */
export async function createSignedInSession(db: Database, session: NewSession): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const { issuer, subject, email, emailVerified, hostedDomain } = session;
    await recordSignIn(tx, { issuer, subject, email, emailVerified, hostedDomain });
    return createSession(tx, session);
  });
}

/** The session and its account's current address, in one read: the gate reads it for every uncached session. */
export async function findSessionByIdHash(
  db: Database,
  { idHash }: { idHash: string },
): Promise<SessionWithAccount | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(sessions), current: currentAddressColumns })
    .from(sessions)
    .leftJoin(accounts, accountOf(sessions))
    .where(eq(sessions.idHash, idHash))
    .limit(1);
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
