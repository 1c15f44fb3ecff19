import {
  type AnswerConfidence,
  type AnswerSource,
  type AttachmentMetadata,
  answerConfidences,
  answerModes,
  feedbackRatings,
  type MessagePart,
  messageRoles,
  messageStatuses,
  threadStatuses,
} from '@acme/contract';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { accountColumns } from './account-schema.js';

/**
 * A check that a text column holds one of the contract's values, written as the migrations wrote it
 * (`status in ('regular', 'archived')`), so drizzle-kit sees no change while the list lives in one place.
 */
const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in ${sql.raw(`(${values.map((value) => `'${value}'`).join(', ')})`)}`;

/** Sign-in sessions. The cookie holds an opaque id; only its hash is stored, so a leaked table opens no session. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** Who signed in; the address is also shown to them. */
    ...accountColumns(),
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_expires_at_index').on(table.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;

/** Dev Copilot conversations, each of one reader (their reader key). */
export const threads = pgTable(
  'threads',
  {
    id: text('id').primaryKey(),
    reader: text('reader').notNull(),
    title: text('title').notNull().default('New chat'),
    status: text('status', { enum: threadStatuses }).notNull().default('regular'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the last message was added; orders the thread list. Renaming or archiving leaves it alone. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The last message of the branch the reader last switched to, so the thread reopens on it; null once a message is
     * added (the newest message's branch is then the one shown). Checked to be a message of the thread when set.
     */
    headMessageId: text('head_message_id'),
    /**
     * The thread's highest message `sequence` when the reader switched to that branch: a message added since (by an
     * instance older than this column's code, which does not clear the head) makes the newest message's branch the one
     * shown again. A sequence, not a time: PGlite's clock counts whole milliseconds, so a message added in the same
     * millisecond as the switch would look older than it.
     */
    headAfterSequence: bigint('head_after_sequence', { mode: 'number' }),
  },
  (table) => [
    // The list's order exactly (`desc` sorts nulls first), ties by id: a page is read from its cursor, never sorted
    index('threads_reader_updated_at_id_index').on(
      table.reader,
      table.updatedAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    check('threads_status_check', oneOf(table.status, threadStatuses)),
  ],
);

/**
 * Every message ever sent or answered in a thread. An edit or a reload adds a sibling with the same parent instead of
 * replacing the message, so each branch the reader can switch between is kept.
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    role: text('role', { enum: messageRoles }).notNull(),
    content: jsonb('content').$type<MessagePart[]>().notNull(),
    attachments: jsonb('attachments').$type<AttachmentMetadata[]>().notNull().default([]),
    sources: jsonb('sources').$type<AnswerSource[]>().notNull().default([]),
    status: text('status', { enum: messageStatuses }).notNull().default('complete'),
    /** An answer's confidence that the handbook answers its question; null for a question and older answers. */
    confidence: text('confidence', { enum: answerConfidences }).$type<AnswerConfidence>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Breaks ties in `created_at`: PGlite's clock counts whole milliseconds, too coarse for a question and its answer. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /**
     * A running answer's last sign of life, by the database's clock: its text stored, or its instance saying it still
     * writes it. An answer silent for a minute lost its instance (store/answer-progress.ts).
     */
    progressAt: timestamp('progress_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('messages_thread_id_index').on(table.threadId),
    index('messages_running_progress_at_index').on(table.progressAt).where(sql`${table.status} = 'running'`),
    check('messages_role_check', oneOf(table.role, messageRoles)),
    check('messages_status_check', oneOf(table.status, messageStatuses)),
    check('messages_confidence_check', oneOf(table.confidence, answerConfidences)),
  ],
);

/** The reader's thumbs up or down on an assistant message; at most one per message. */
export const feedback = pgTable(
  'feedback',
  {
    messageId: text('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    reader: text('reader').notNull(),
    rating: text('rating', { enum: feedbackRatings }).notNull(),
    comment: text('comment'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('feedback_rating_check', oneOf(table.rating, feedbackRatings)),
    // The insights' answers rated down, newest first (insights/queries.ts).
    index('feedback_rated_down_index').on(table.updatedAt.desc()).where(sql`${table.rating} = 'negative'`),
  ],
);

export type ThreadRow = typeof threads.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type FeedbackRow = typeof feedback.$inferSelect;

/**
 * Every question Dev Copilot answered, for the maintainers' report (`npm run copilot:report`): what the docs could
 * not answer, and which page came closest. `answer_message_id` is the id of the stored answer, so feedback on it (by
 * the same reader) joins here. No foreign key: a stateless askAi call stores no answer.
 */
export const questions = pgTable(
  'questions',
  {
    id: text('id').primaryKey(),
    reader: text('reader').notNull(),
    question: text('question').notNull(),
    /** The question as typed, not as searched (for the insights: answer-service.ts); null before it was kept. */
    asked: text('asked'),
    mode: text('mode', { enum: answerModes }).notNull(),
    covered: boolean('covered').notNull(),
    /** Answered, only the closest the handbook comes, or not covered; null for questions logged before it was kept. */
    confidence: text('confidence', { enum: answerConfidences }).$type<AnswerConfidence>(),
    nearestPageUrl: text('nearest_page_url'),
    nearestPageTitle: text('nearest_page_title'),
    sources: jsonb('sources').$type<AnswerSource[]>().notNull().default([]),
    answerMessageId: text('answer_message_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('questions_created_at_index').on(table.createdAt.desc()),
    // The insights' newest questions the docs did not answer; the predicate is insights/queries.ts's, word for word.
    index('questions_unanswered_created_at_index')
      .on(table.createdAt.desc())
      .where(sql`coalesce(confidence, case when covered then 'answered' else 'none' end) <> 'answered'`),
    check('questions_mode_check', oneOf(table.mode, answerModes)),
    check('questions_confidence_check', oneOf(table.confidence, answerConfidences)),
    // One entry per answer; the server makes answer ids (a stateless askAi call gets an id of its own).
    unique('questions_reader_answer_unique').on(table.reader, table.answerMessageId),
  ],
);

export type QuestionRow = typeof questions.$inferSelect;

/**
 * What readers typed into the search box, for the maintainers' insights: the query (credentials masked), how many
 * results it found, and whether a result was opened. Kept as long as questions (COPILOT_QUESTION_LOG_DAYS).
 */
export const searchQueries = pgTable(
  'search_queries',
  {
    id: text('id').primaryKey(),
    reader: text('reader').notNull(),
    query: text('query').notNull(),
    resultCount: integer('result_count').notNull(),
    clicked: boolean('clicked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('search_queries_created_at_index').on(table.createdAt.desc()),
    index('search_queries_reader_index').on(table.reader),
  ],
);

export type SearchQueryRow = typeof searchQueries.$inferSelect;

/**
 * Requests a minute per reader and kind (`ask:user:<e-mail>`), for every instance on this database (src/limits/): a
 * fixed window opened by its first request, one row per reader and kind, reused by the next window.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
});

/** Questions being answered now, across instances (src/limits/); a dead instance's rows lapse at `expires_at`. */
export const runningQuestionSlots = pgTable(
  'running_question_slots',
  {
    id: text('id').primaryKey(),
    reader: text('reader').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('running_question_slots_reader_index').on(table.reader)],
);

/**
 * Personal access tokens: a reader's read-only credential for scripts and coding agents (src/auth/tokens/). Only a
 * SHA-256 hash of the token's secret is kept, so a leaked table opens nothing. The reader's identity is copied from the
 * session that made the token, so every request with it is checked against the access policy as a session would be.
 * A revoked token's row is deleted.
 */
export const personalTokens = pgTable(
  'personal_tokens',
  {
    id: text('id').primaryKey(),
    /** readerKeyOf the reader who made it: the key their threads and limits are under. */
    reader: text('reader').notNull(),
    ...accountColumns(),
    /** The reader's own label for it ("laptop Claude Code"). */
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /**
     * Set when the reader granted this access to a coding agent through OAuth (auth/oauth/): then `secretHash` is the
     * access token's, which ends at `accessExpiresAt`, `refreshHash` the refresh token's, and `expiresAt` the grant's
     * end. A revoked grant's row is deleted like a revoked token's.
     */
    clientId: text('client_id').references(() => oauthClients.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash'),
    /** The refresh token it replaced: presented again, it is being replayed, and the grant is revoked. */
    previousRefreshHash: text('previous_refresh_hash'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
  },
  (table) => [index('personal_tokens_reader_index').on(table.reader, table.createdAt.desc())],
);

export type PersonalTokenRow = typeof personalTokens.$inferSelect;

/** Coding agents registered through OAuth dynamic client registration (RFC 7591): public clients, no secret. */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  /** As the client named itself: shown escaped on the consent page, never trusted. */
  name: text('name').notNull(),
  /** The exact redirect URIs it registered; an authorization request must name one of them. */
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/**
 * Authorization codes between the reader's consent and the client's token request: only a hash of the code, used
 * once (`usedAt`); `tokenId` is the access it was exchanged for, revoked should the code be presented again.
 */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id')
    .notNull()
    .references(() => oauthClients.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  /** PKCE: the S256 challenge the token request's verifier must hash to. */
  codeChallenge: text('code_challenge').notNull(),
  resource: text('resource').notNull(),
  reader: text('reader').notNull(),
  ...accountColumns(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  tokenId: text('token_id'),
});

export type OAuthCodeRow = typeof oauthCodes.$inferSelect;

export * from './account-schema.js';
export * from './insights-rollup-schema.js';
