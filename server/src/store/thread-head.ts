import type { MessagePart } from '@acme/contract';
import { and, eq, exists, isNull, sql } from 'drizzle-orm';
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
  // One read of the thread's tree: every message's parent, and the content of its first questions only (an answer's
  // content can be long and is not needed).
  const tree = await db
    .select({
      id: messages.id,
      parentId: messages.parentId,
      firstQuestion: sql<
        MessagePart[] | null
      >`case when ${isNull(messages.parentId)} and ${eq(messages.role, 'user')} then ${messages.content} end`.mapWith(
        messages.content,
      ),
    })
    .from(messages)
    .where(eq(messages.threadId, threadId));
  const roots = tree.flatMap(({ id, firstQuestion }) => (firstQuestion ? [{ id, content: firstQuestion }] : []));
  if (roots.length < 2 || !namedAfterFirstQuestion(current, roots)) return current;
  const parents = new Map(tree.map((message) => [message.id, message.parentId]));
  let first = messageId;
  // At most one step per message: a parent chain never loops, and a damaged one must not hang the request.
  for (let steps = 0, parent = parents.get(first); parent && steps < parents.size; steps += 1) {
    first = parent;
    parent = parents.get(first);
  }
  const root = roots.find((each) => each.id === first);
  return (root && titleFromContent(root.content)) ?? current;
}
