import { and, desc, eq, inArray, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { type OAuthClientRow, type OAuthCodeRow, oauthClients, oauthCodes, personalTokens } from './schema.js';

export type { OAuthClientRow, OAuthCodeRow };

/**
 * How long a client nobody has authorized is kept: the maintenance removes it once it is older. An agent registers
 * and opens the consent page at once, and its reader answers within minutes; one that comes back later registers again.
 */
export const unauthorizedClientLifetimeMs = 3_600_000;

/**
 * The advisory lock over clients nobody has authorized: a registration making room and the maintenance take it alone, a
 * consent storing a code shares it, so no client is removed while a code for it is being stored.
 */
const clientsLock = sql`hashtextextended('oauth-clients', 0)`;

/**
 * The condition on a client row that nobody has authorized it: no grant (a personal token row) names it, nor a code a
 * reader's consent gave and the agent has yet to exchange.
 */
const neverAuthorized = (db: Database) =>
  and(
    notExists(db.select().from(personalTokens).where(eq(personalTokens.clientId, oauthClients.id))),
    notExists(db.select().from(oauthCodes).where(eq(oauthCodes.clientId, oauthClients.id))),
  );

export async function createOAuthClient(db: Database, client: Omit<OAuthClientRow, 'createdAt'>) {
  const [row] = await db.insert(oauthClients).values(client).returning();
  if (!row) throw new Error(`Inserting OAuth client ${client.id} returned no row`);
  return row;
}

/**
 * Stores a client anyone registered, keeping at most `max` clients nobody has authorized: at the ceiling the oldest
 * of them make room, never one with a grant or a code. Refusing instead let a stranger with many addresses fill the
 * ceiling and shut registration for every reader. The count, the removal and the insert hold the clients' lock, so
 * registrations at once cannot pass the ceiling. Returns the client and how many clients made room for it.
 */
export async function createOAuthClientWithinCeiling(
  db: Database,
  client: Omit<OAuthClientRow, 'createdAt'>,
  { max }: { max: number },
): Promise<{ client: OAuthClientRow; removed: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${clientsLock})`);
    const beyondCeiling = await tx
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(neverAuthorized(tx))
      .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id))
      .offset(max - 1);
    if (beyondCeiling.length > 0) {
      await tx.delete(oauthClients).where(
        inArray(
          oauthClients.id,
          beyondCeiling.map((row) => row.id),
        ),
      );
    }
    return { client: await createOAuthClient(tx, client), removed: beyondCeiling.length };
  });
}

export async function findOAuthClient(db: Database, { id }: { id: string }): Promise<OAuthClientRow | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id)).limit(1);
  return row;
}

/**
 * Stores a code for its client; false when the client is gone (made room for a newer one, or removed as stale, while
 * the reader read the consent page): the reader is told it is unknown, as on a later request.
 */
export async function createAuthorizationCode(
  db: Database,
  code: Omit<OAuthCodeRow, 'usedAt' | 'tokenId'>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${clientsLock})`);
    if (!(await findOAuthClient(tx, { id: code.clientId }))) return false;
    await tx.insert(oauthCodes).values(code);
    return true;
  });
}

/**
 * What a code's `token_id` holds when the code was presented again before the exchange that took it had recorded its
 * token (two requests racing with one code, as an attacker with a stolen code would): that exchange then revokes its own.
 */
const replayedBeforeRecorded = 'replayed';

/**
 * Marks the code used and returns it, in one statement: of two requests with one code, one gets it. Undefined when
 * there is no such code or it was used before (`reused` then says which, with the token it gave if one is recorded;
 * if none is yet, the code is marked so the exchange under way finds it replayed).
 */
export async function takeAuthorizationCode(
  db: Database,
  { codeHash, now }: { codeHash: string; now: Date },
): Promise<{ code: OAuthCodeRow } | { code: undefined; reused: OAuthCodeRow | undefined }> {
  const [taken] = await db
    .update(oauthCodes)
    .set({ usedAt: now })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
    .returning();
  if (taken) return { code: taken };
  await db
    .update(oauthCodes)
    .set({ tokenId: replayedBeforeRecorded })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.tokenId)));
  const [used] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1);
  const tokenId = used?.tokenId === replayedBeforeRecorded ? null : (used?.tokenId ?? null);
  return { code: undefined, reused: used && { ...used, tokenId } };
}

/** Records the token a code gave; false when the code was presented again meanwhile, and that token must go. */
export async function recordCodeToken(
  db: Database,
  { codeHash, tokenId }: { codeHash: string; tokenId: string },
): Promise<boolean> {
  const recorded = await db
    .update(oauthCodes)
    .set({ tokenId })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.tokenId)))
    .returning({ codeHash: oauthCodes.codeHash });
  return recorded.length > 0;
}

/**
 * Replaces a grant's access and refresh tokens, only if the refresh token presented is still its current one: a
 * refresh token works once. The one replaced is kept, to know it if it comes again. False when it was already
 * replaced (or the grant revoked).
 */
export async function rotateOAuthTokens(
  db: Database,
  grant: { id: string; previousRefreshHash: string; secretHash: string; refreshHash: string; accessExpiresAt: Date },
) {
  const updated = await db
    .update(personalTokens)
    .set({
      secretHash: grant.secretHash,
      refreshHash: grant.refreshHash,
      previousRefreshHash: grant.previousRefreshHash,
      accessExpiresAt: grant.accessExpiresAt,
    })
    .where(and(eq(personalTokens.id, grant.id), eq(personalTokens.refreshHash, grant.previousRefreshHash)))
    .returning({ id: personalTokens.id });
  return updated.length > 0;
}

/** Codes past their expiry, then clients registered over their lifetime ago that nobody has authorized. */
export async function deleteStaleOAuthRows(db: Database, { now }: { now: Date }): Promise<number> {
  const codes = await db
    .delete(oauthCodes)
    .where(lte(oauthCodes.expiresAt, now))
    .returning({ id: oauthCodes.codeHash });
  const expiredBy = new Date(now.getTime() - unauthorizedClientLifetimeMs);
  const clients = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${clientsLock})`);
    return tx
      .delete(oauthClients)
      .where(and(lte(oauthClients.createdAt, expiredBy), neverAuthorized(tx)))
      .returning({ id: oauthClients.id });
  });
  return codes.length + clients.length;
}
