import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Sign-in sessions. The cookie holds an opaque id; only its hash is stored, so a leaked table opens no session. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull(),
    hostedDomain: text('hosted_domain'),
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_expires_at_index').on(table.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
