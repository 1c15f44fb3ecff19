import { and, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { messages, threads } from './schema.js';

/**
 * A running answer whose instance has said nothing for this long lost its instance (killed, out of memory, cut off):
 * a live one stores its text or says it still writes it (`stillWriting`) three times as often.
 */
export const staleAnswerMs = 60_000;

/** Before this moment by the database's clock: every instance compares with one clock, whatever its own says. */
const silentSince = (ms: number): SQL => sql`now() - make_interval(secs => ${ms / 1000})`;

/** The answers this instance writes are alive, even while nothing new was written (a model thinking, say). */
export async function stillWriting(db: Database, answerIds: string[]): Promise<void> {
  if (answerIds.length === 0) return;
  await db
    .update(messages)
    .set({ progressAt: sql`now()` })
    .where(and(inArray(messages.id, answerIds), eq(messages.status, 'running')));
}

/** Ends as failed every running answer silent for `silentForMs`: nobody writes it any more. Returns how many. */
export async function failStaleAnswers(db: Database, silentForMs = staleAnswerMs): Promise<number> {
  const failed = await db
    .update(messages)
    .set({ status: 'error' })
    .where(and(eq(messages.status, 'running'), lt(messages.progressAt, silentSince(silentForMs))))
    .returning({ id: messages.id });
  return failed.length;
}

/**
 * The reader pressed Stop on an answer no instance writes any more: it is stored as stopped, as it stands. False when
 * the thread (of this reader) has no such answer: none running, or one still alive on another instance.
 */
export async function stopStaleAnswer(
  db: Database,
  { reader, threadId, silentForMs = staleAnswerMs }: { reader: string; threadId: string; silentForMs?: number },
): Promise<boolean> {
  const stopped = await db
    .update(messages)
    .set({ status: 'incomplete' })
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.status, 'running'),
        lt(messages.progressAt, silentSince(silentForMs)),
        inArray(
          messages.threadId,
          db
            .select({ id: threads.id })
            .from(threads)
            .where(and(eq(threads.id, threadId), eq(threads.reader, reader))),
        ),
      ),
    )
    .returning({ id: messages.id });
  return stopped.length > 0;
}
