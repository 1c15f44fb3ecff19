import { and, asc, eq, exists, isNull, sql } from 'drizzle-orm';
import { type ForReader, messageNotFound, ownedThread, threadNotFound } from './conversations.js';
import type { Database } from './database.js';
import { namedAfterFirstQuestion, titleFromContent } from './messages.js';
import { messages, threads } from './schema.js';

/**
 * Remembers the branch the reader switched to, named by its last message, so the thread reopens on it. A message of
 * another thread, or of another reader's, is not found; so is another reader's thread. A thread named after its first
 * question (not by the reader) is named after the first question of the branch switched to, as an edit of that
 * question named it: going back to the question as first asked gives back its title. Returns the thread's title.
 */
export async function setThreadHead(
  db: Database,
  { reader, threadId, messageId }: ForReader & { threadId: string; messageId: string },
): Promise<{ title: string }> {
  return db.transaction(async (tx) => {
    const inThread = tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.threadId, threadId)));
    const [updated] = await tx
      .update(threads)
      .set({
        headMessageId: messageId,
        headAfterSequence: sql`(select max(${messages.sequence}) from ${messages} where ${messages.threadId} = ${threadId})`,
      })
      .where(and(ownedThread(reader, threadId), exists(inThread)))
      .returning({ title: threads.title });
    if (!updated) {
      const [thread] = await tx.select({ id: threads.id }).from(threads).where(ownedThread(reader, threadId));
      throw thread ? messageNotFound() : threadNotFound();
    }
    const title = await titleOfBranch(tx, { threadId, messageId, current: updated.title });
    if (title === updated.title) return { title };
    await tx.update(threads).set({ title }).where(eq(threads.id, threadId));
    return { title };
  });
}

/** The title a thread named after its first question takes for the branch ending at `messageId`; else `current`. */
async function titleOfBranch(
  db: Database,
  { threadId, messageId, current }: { threadId: string; messageId: string; current: string },
): Promise<string> {
  const roots = await db
    .select({ id: messages.id, content: messages.content })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.role, 'user'), isNull(messages.parentId)));
  if (roots.length < 2 || !namedAfterFirstQuestion(current, roots)) return current;
  const parents = new Map(
    (
      await db
        .select({ id: messages.id, parentId: messages.parentId })
        .from(messages)
        .where(eq(messages.threadId, threadId))
        .orderBy(asc(messages.sequence))
    ).map((message) => [message.id, message.parentId]),
  );
  let first = messageId;
  // At most one step per message: a parent chain never loops, and a damaged one must not hang the request.
  for (let steps = 0, parent = parents.get(first); parent && steps < parents.size; steps += 1) {
    first = parent;
    parent = parents.get(first);
  }
  const root = roots.find((each) => each.id === first);
  return (root && titleFromContent(root.content)) ?? current;
}
