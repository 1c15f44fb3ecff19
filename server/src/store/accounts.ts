import { type AnyColumn, and, eq, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { type AccountRow, accounts } from './schema.js';

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
