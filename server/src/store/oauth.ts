import { and, eq, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { type OAuthClientRow, type OAuthCodeRow, oauthClients, oauthCodes, personalTokens } from './schema.js';

export type { OAuthClientRow, OAuthCodeRow };

/**
 * How long a stored client nobody has authorized is kept: a client is stored when a reader consents, so only one whose
 * code went unexchanged is found here, and the maintenance removes it once it is older.
 */
export const unauthorizedClientLifetimeMs = 3_600_000;

/**
 * The advisory lock over stored clients nobody has authorized: the maintenance takes it alone, a consent storing a
 * client and its code shares it, so no client is removed while a code for it is being stored.
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

export async function findOAuthClient(db: Database, { id }: { id: string }): Promise<OAuthClientRow | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id)).limit(1);
  return row;
}

/**
 * Stores a code a reader's consent gave, and its client with it if this is the client's first: registering stores
 * nothing (the client_id carries the registration), so the client row the code and its grant name is made here.
 */
export async function createAuthorizationCode(
  db: Database,
  {
    client,
    code,
  }: { client: Omit<OAuthClientRow, 'createdAt'>; code: Omit<OAuthCodeRow, 'usedAt' | 'tokenId' | 'clientId'> },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${clientsLock})`);
    await tx
      .insert(oauthClients)
      .values({ id: client.id, name: client.name, redirectUris: client.redirectUris })
      .onConflictDoNothing({ target: oauthClients.id });
    await tx.insert(oauthCodes).values({ ...code, clientId: client.id });
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
