import { type AnyColumn, and, eq, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { type AccountRow, accounts, oauthCodes, personalTokens, sessions } from './schema.js';

/** What the access policy reads of an account's address, as its latest sign-in gave it. */
export type CurrentAddress = Pick<AccountRow, 'email' | 'emailVerified' | 'hostedDomain'>;

/**
 * Selected beside a session's or token's own columns: the account's latest address, or null for an account that has
 * not signed in since addresses were kept per account (its credentials then carry the latest address known).
 */
export const currentAddressColumns = {
  email: accounts.email,
  emailVerified: accounts.emailVerified,
  hostedDomain: accounts.hostedDomain,
};

/** Joins the account row of a table that holds an issuer and a subject. */
export const accountOf = (table: { issuer: AnyColumn; subject: AnyColumn }) =>
  and(eq(accounts.issuer, table.issuer), eq(accounts.subject, table.subject));

/** Keeps the address a sign-in gave an account as its current one, whether the policy allowed that sign-in or not. */
export async function recordSignIn(db: Database, account: Omit<AccountRow, 'signedInAt'>) {
  const { issuer, subject, ...address } = account;
  await db
    .insert(accounts)
    .values(account)
    .onConflictDoUpdate({ target: [accounts.issuer, accounts.subject], set: { ...address, signedInAt: sql`now()` } });
}

/** The account's current address; undefined when it has not signed in since addresses were kept per account. */
export async function findCurrentAddress(
  db: Database,
  { issuer, subject }: { issuer: string; subject: string },
): Promise<CurrentAddress | undefined> {
  const [row] = await db
    .select(currentAddressColumns)
    .from(accounts)
    .where(and(eq(accounts.issuer, issuer), eq(accounts.subject, subject)))
    .limit(1);
  return row;
}

/**
 * Removes the accounts nothing refers to any more: no session, personal token or OAuth code of theirs is left, and their
 * latest sign-in is over a day old (a sign-in under way writes its account before its session). The next sign-in
 * records the account again. Returns how many were removed.
 */
export async function deleteUnusedAccounts(db: Database, { now }: { now: Date }): Promise<number> {
  const unused = [sessions, personalTokens, oauthCodes].map((table) =>
    notExists(db.select({ one: sql`1` }).from(table).where(accountOf(table))),
  );
  const removed = await db
    .delete(accounts)
    .where(and(lte(accounts.signedInAt, new Date(now.getTime() - 86_400_000)), ...unused))
    .returning({ subject: accounts.subject });
  return removed.length;
}
