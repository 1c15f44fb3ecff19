import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * An account as the identity provider described it at sign-in: its `iss` and `sub`, which never change for one account
 * (readerKeyOf), and the address with what the access policy reads, never used as a reader key. A session holds it,
 * and so does every grant made in one (a personal token, an OAuth code), so that each use is checked against policy.
 */
export const accountColumns = () => ({
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  emailVerified: boolean('email_verified').notNull(),
  hostedDomain: text('hosted_domain'),
});

/**
 * Each account's address as its latest sign-in gave it. The provider may change an account's address; every session,
 * token and grant of the account is then judged by this one as well as by the address it was made with, so blocking
 * either address locks out what was made under the other (auth/account-access.ts).
 */
export const accounts = pgTable(
  'accounts',
  {
    ...accountColumns(),
    signedInAt: timestamp('signed_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] })],
);

export type AccountRow = typeof accounts.$inferSelect;
