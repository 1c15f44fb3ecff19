import { and, count, desc, eq, getTableColumns, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { accountOf, type CurrentAddress, currentAddressColumns } from './accounts.js';
import type { Database } from './database.js';
import { accounts, type PersonalTokenRow, personalTokens } from './schema.js';

export type { PersonalTokenRow };

/** A token with its account's current address (null before the account signed in since those were kept). */
export type PersonalTokenWithAccount = PersonalTokenRow & { current: CurrentAddress | null };

export type NewPersonalToken = Omit<typeof personalTokens.$inferInsert, 'createdAt' | 'lastUsedAt'>;

export async function createPersonalToken(db: Database, token: NewPersonalToken): Promise<PersonalTokenRow> {
  const [row] = await db.insert(personalTokens).values(token).returning();
  if (!row) throw new Error(`Inserting personal token ${token.id} returned no row`);
  return row;
}

/** Why a token was not stored: its reader holds `max` live ones, or (when names must differ) one of that name. */
export type TokenRefused = 'limit' | 'name';

/**
 * Stores the token unless its reader already holds `max` live ones, or, with `uniqueName`, a live one of the same name
 * (letter case aside): a list of tokens named alike cannot tell which to revoke. The checks and the insert hold a lock
 * of the reader's own (a transaction's advisory lock) so that requests made at once cannot each count below the limit
 * and all insert (80 at once left 54 tokens on PostgreSQL).
 */
export async function createPersonalTokenWithinLimit(
  db: Database,
  token: NewPersonalToken,
  { max, now, uniqueName = false }: { max: number; now: Date; uniqueName?: boolean },
): Promise<PersonalTokenRow | TokenRefused> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tokens:${token.reader}`}, 0))`);
    if ((await countLivePersonalTokens(tx, { reader: token.reader, now })) >= max) return 'limit';
    if (uniqueName && (await holdsLiveTokenNamed(tx, { reader: token.reader, name: token.name, now }))) return 'name';
    return createPersonalToken(tx, token);
  });
}

async function holdsLiveTokenNamed(db: Database, { reader, name, now }: { reader: string; name: string; now: Date }) {
  const [row] = await db
    .select({ id: personalTokens.id })
    .from(personalTokens)
    .where(
      and(
        eq(personalTokens.reader, reader),
        gt(personalTokens.expiresAt, now),
        sql`lower(${personalTokens.name}) = lower(${name})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The token and its account's current address, in one read: every request with a token reads it. */
export async function findPersonalToken(
  db: Database,
  { id }: { id: string },
): Promise<PersonalTokenWithAccount | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(personalTokens), current: currentAddressColumns })
    .from(personalTokens)
    .leftJoin(accounts, accountOf(personalTokens))
    .where(eq(personalTokens.id, id))
    .limit(1);
  return row;
}

/** The reader's tokens that have not expired at `now`, newest first. */
export async function listPersonalTokens(db: Database, { reader, now }: { reader: string; now: Date }) {
  return db
    .select()
    .from(personalTokens)
    .where(and(eq(personalTokens.reader, reader), gt(personalTokens.expiresAt, now)))
    .orderBy(desc(personalTokens.createdAt));
}

export async function countLivePersonalTokens(db: Database, { reader, now }: { reader: string; now: Date }) {
  const [row] = await db
    .select({ live: count() })
    .from(personalTokens)
    .where(and(eq(personalTokens.reader, reader), gt(personalTokens.expiresAt, now)));
  return row?.live ?? 0;
}

/** Revokes one of the reader's tokens; false when the reader has no token with this id. */
export async function deletePersonalToken(db: Database, { reader, id }: { reader: string; id: string }) {
  const deleted = await db
    .delete(personalTokens)
    .where(and(eq(personalTokens.id, id), eq(personalTokens.reader, reader)))
    .returning({ id: personalTokens.id });
  return deleted.length > 0;
}

/** Revokes the reader's earlier grants to one OAuth client (a new consent replaces them). */
export async function deleteOAuthGrants(db: Database, { reader, clientId }: { reader: string; clientId: string }) {
  await db.delete(personalTokens).where(and(eq(personalTokens.reader, reader), eq(personalTokens.clientId, clientId)));
}

/** Marks a token used at `now`, unless it was marked within `throttleMs` (one write a minute, not one a request). */
export async function touchPersonalToken(
  db: Database,
  { id, now, throttleMs }: { id: string; now: Date; throttleMs: number },
) {
  const markedBefore = new Date(now.getTime() - throttleMs);
  await db
    .update(personalTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(personalTokens.id, id),
        or(isNull(personalTokens.lastUsedAt), lte(personalTokens.lastUsedAt, markedBefore)),
      ),
    );
}

/** Removes tokens past their expiry; returns how many. */
export async function deleteExpiredPersonalTokens(db: Database, { now }: { now: Date }): Promise<number> {
  const deleted = await db
    .delete(personalTokens)
    .where(lte(personalTokens.expiresAt, now))
    .returning({ id: personalTokens.id });
  return deleted.length;
}

/** The ids of every token not expired at `now`, personal and OAuth alike: what a made-up credential cannot name. */
export async function listLiveTokenIds(db: Database, { now }: { now: Date }): Promise<string[]> {
  const rows = await db.select({ id: personalTokens.id }).from(personalTokens).where(gt(personalTokens.expiresAt, now));
  return rows.map((row) => row.id);
}
