import { randomUUID } from 'node:crypto';
import { ApiError, errorDetails, type FeedbackRating, type ThreadStatus, threadListPageSize } from '@acme/contract';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { feedback, type MessageRow, messages, questions, type ThreadRow, threads } from './schema.js';

export const newThreadTitle = 'New chat';

export const threadNotFound = () => new ApiError('not_found:thread');
export const messageNotFound = () => new ApiError('not_found:message');

export type Thread = Omit<ThreadRow, 'reader' | 'headMessageId' | 'headAfterSequence'>;
export type MessageFeedback = { rating: FeedbackRating; comment: string | null; updatedAt: Date };
export type Message = Omit<MessageRow, 'sequence' | 'progressAt'> & { feedback: MessageFeedback | null };
/** `headId`: the last message of the branch the reader last switched to; null for the newest message's branch. */
export type ThreadWithMessages = { thread: Thread; messages: Message[]; headId: string | null };
/** `reader`: whose rows these are, compared exactly; the reader's subject key (src/auth/reader-identity.ts). */
export type ForReader = { reader: string };

const threadColumns = {
  id: threads.id,
  title: threads.title,
  status: threads.status,
  createdAt: threads.createdAt,
  updatedAt: threads.updatedAt,
};

export const messageColumns = {
  id: messages.id,
  threadId: messages.threadId,
  parentId: messages.parentId,
  role: messages.role,
  content: messages.content,
  attachments: messages.attachments,
  sources: messages.sources,
  status: messages.status,
  confidence: messages.confidence,
  createdAt: messages.createdAt,
};

export const ownedThread = (reader: string, threadId: string) =>
  and(eq(threads.id, threadId), eq(threads.reader, reader));

/** Where a thread stands in its reader's list: its last activity, in microseconds since 1970 as stored, and its id. */
export type ThreadPosition = { activeAtMicros: string; id: string };
export type ThreadPage = { threads: Thread[]; next: ThreadPosition | null };

// Microseconds, exactly: a JavaScript Date holds milliseconds, and two threads active in the same millisecond would
// otherwise be skipped or repeated between pages.
const activeAtMicros = sql<string>`(extract(epoch from ${threads.updatedAt}) * 1000000)::bigint::text`;

/**
 * A page of the reader's threads, most recently active first (ties by id), starting after `after`; `next` is where the
 * following page starts, null on the last one. Keyed on the position rather than an offset, so a thread that moves up
 * or goes away between two pages neither repeats nor hides another.
 */
export async function listThreads(db: Database, options: ThreadListOptions): Promise<ThreadPage> {
  const limit = options.limit ?? threadListPageSize;
  const rows = await threadListQuery(db, { ...options, limit });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    threads: page.map(({ activeAtMicros: _, ...thread }) => thread),
    next: rows.length > limit && last ? { activeAtMicros: last.activeAtMicros, id: last.id } : null,
  };
}

type ThreadListOptions = ForReader & {
  status?: ThreadStatus | undefined;
  limit?: number;
  after?: ThreadPosition | undefined;
};

/** The statement of a page of the list, one row more than the page (tests read its plan). */
export function threadListQuery(
  db: Database,
  { reader, status, limit = threadListPageSize, after }: ThreadListOptions,
) {
  return db
    .select({ ...threadColumns, activeAtMicros })
    .from(threads)
    .where(
      and(
        eq(threads.reader, reader),
        status ? eq(threads.status, status) : undefined,
        // Compared on the columns themselves, in the index's order: the cursor's microseconds back to a timestamp,
        // exactly (a comparison on a computed value read all the reader's threads for every page).
        after
          ? sql`(${threads.updatedAt}, ${threads.id}) < (timestamptz 'epoch' + ${after.activeAtMicros}::bigint * interval '1 microsecond', ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(threads.updatedAt), desc(threads.id))
    .limit(limit + 1);
}

export async function createThread(
  db: Database,
  { reader, title }: ForReader & { title?: string | undefined },
): Promise<Thread> {
  const [thread] = await db
    .insert(threads)
    .values({ id: randomUUID(), reader, title: title ?? newThreadTitle })
    .returning(threadColumns);
  if (!thread) throw new Error('Inserting a thread returned no row');
  return thread;
}

/**
 * Creates the thread unless its reader already keeps `max` (archived ones count: they are stored; a deleted one is gone
 * and frees its place). Refuses rather than deletes anything to make room. The count and the insert hold a lock of the
 * reader's own (a transaction's advisory lock), so that creations at once cannot each count below the limit and all
 * insert: on PostgreSQL they run side by side; PGlite runs one transaction at a time anyway, and takes the lock as well.
 */
export async function createThreadWithinLimit(
  db: Database,
  thread: ForReader & { title?: string | undefined },
  { max }: { max: number },
): Promise<Thread> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`threads:${thread.reader}`}, 0))`);
    if ((await countThreads(tx, thread)) >= max) {
      throw new ApiError('conflict:thread_limit', errorDetails.threadLimit(max));
    }
    return createThread(tx, thread);
  });
}

/** How many threads the reader keeps, archived ones included. */
export async function countThreads(db: Database, { reader }: ForReader): Promise<number> {
  const [row] = await db.select({ kept: count() }).from(threads).where(eq(threads.reader, reader));
  return row?.kept ?? 0;
}

/** The thread and every message of every branch, oldest first, each with its feedback; undefined if not the reader's. */
export async function getThreadWithMessages(
  db: Database,
  { reader, threadId }: ForReader & { threadId: string },
): Promise<ThreadWithMessages | undefined> {
  const [found] = await db
    .select({ ...threadColumns, headMessageId: threads.headMessageId, headAfterSequence: threads.headAfterSequence })
    .from(threads)
    .where(ownedThread(reader, threadId))
    .limit(1);
  if (!found) return undefined;
  const { headMessageId, headAfterSequence, ...thread } = found;
  const rows = await db
    .select({ message: messageColumns, sequence: messages.sequence, feedback })
    .from(messages)
    .leftJoin(feedback, eq(feedback.messageId, messages.id))
    .where(eq(messages.threadId, thread.id))
    .orderBy(asc(messages.createdAt), asc(messages.sequence));
  return {
    thread,
    // A message added since the switch (an older instance adds one without clearing the head) shows the newest branch.
    headId: headAfterSequence !== null && rows.every((row) => row.sequence <= headAfterSequence) ? headMessageId : null,
    messages: rows.map((row) => ({
      ...row.message,
      feedback: row.feedback
        ? { rating: row.feedback.rating, comment: row.feedback.comment, updatedAt: row.feedback.updatedAt }
        : null,
    })),
  };
}

export async function renameThread(
  db: Database,
  { reader, threadId, title }: ForReader & { threadId: string; title: string },
): Promise<Thread> {
  const [thread] = await db
    .update(threads)
    .set({ title })
    .where(ownedThread(reader, threadId))
    .returning(threadColumns);
  if (!thread) throw threadNotFound();
  return thread;
}

/** Only a regular thread can be archived (spec section 4). */
export function archiveThread(db: Database, target: ForReader & { threadId: string }): Promise<Thread> {
  return moveThread(db, target, { from: 'regular', to: 'archived' });
}

/** Only an archived thread can be unarchived (spec section 4). */
export function unarchiveThread(db: Database, target: ForReader & { threadId: string }): Promise<Thread> {
  return moveThread(db, target, { from: 'archived', to: 'regular' });
}

async function moveThread(
  db: Database,
  { reader, threadId }: ForReader & { threadId: string },
  { from, to }: { from: ThreadStatus; to: ThreadStatus },
): Promise<Thread> {
  const [moved] = await db
    .update(threads)
    .set({ status: to })
    .where(and(ownedThread(reader, threadId), eq(threads.status, from)))
    .returning(threadColumns);
  if (moved) return moved;
  const [existing] = await db.select({ id: threads.id }).from(threads).where(ownedThread(reader, threadId));
  if (!existing) throw threadNotFound();
  throw new ApiError('conflict:thread_status', errorDetails.threadStatus(from, to));
}

/** Renames and moves a thread in one step: either both happen or neither does. */
export async function updateThread(
  db: Database,
  {
    reader,
    threadId,
    title,
    status,
  }: ForReader & { threadId: string; title?: string | undefined; status?: ThreadStatus | undefined },
): Promise<Thread> {
  return db.transaction(async (tx) => {
    const target = { reader, threadId };
    let thread: Thread | undefined;
    if (status === 'archived') thread = await archiveThread(tx, target);
    if (status === 'regular') thread = await unarchiveThread(tx, target);
    if (title !== undefined) thread = await renameThread(tx, { ...target, title });
    if (thread) return thread;
    const [current] = await tx.select(threadColumns).from(threads).where(ownedThread(reader, threadId));
    if (!current) throw threadNotFound();
    return current;
  });
}

/** Deletes the thread with its messages and their feedback. */
export async function deleteThread(
  db: Database,
  { reader, threadId }: ForReader & { threadId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    // The questions log forgets what was asked in a deleted conversation, as the thread forgets its messages.
    const answersInThread = tx
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(threads, eq(threads.id, messages.threadId))
      .where(ownedThread(reader, threadId));
    await tx
      .delete(questions)
      .where(and(eq(questions.reader, reader), inArray(questions.answerMessageId, answersInThread)));
    const deleted = await tx.delete(threads).where(ownedThread(reader, threadId)).returning({ id: threads.id });
    if (deleted.length === 0) throw threadNotFound();
  });
}
