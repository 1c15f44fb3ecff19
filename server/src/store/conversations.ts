import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import {
  type AttachmentMetadata,
  type FeedbackRating,
  feedback,
  type MessagePart,
  type MessageRole,
  type MessageRow,
  type MessageSource,
  type MessageStatus,
  messages,
  questions,
  type ThreadRow,
  type ThreadStatus,
  threads,
} from './schema.js';

export const newThreadTitle = 'New chat';
const maxDerivedTitleLength = 60;

export type ConversationErrorCode =
  | 'not_found:thread'
  | 'not_found:message'
  | 'conflict:thread_status'
  | 'conflict:message_id'
  | 'bad_request:parent_id'
  | 'bad_request:feedback_role';

/** Why a conversation change was refused. Another owner's thread or message is "not found", never "forbidden". */
export class ConversationError extends Error {
  constructor(
    readonly code: ConversationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConversationError';
  }
}

export const threadNotFound = () => new ConversationError('not_found:thread', 'There is no chat with this id.');
const messageNotFound = () => new ConversationError('not_found:message', 'There is no message with this id.');

export type Thread = Omit<ThreadRow, 'ownerEmail'>;
export type MessageFeedback = { rating: FeedbackRating; comment: string | null; updatedAt: Date };
export type Message = Omit<MessageRow, 'sequence'> & { feedback: MessageFeedback | null };
export type ThreadWithMessages = { thread: Thread; messages: Message[] };
export type NewMessage = {
  id?: string | undefined;
  parentId: string | null;
  role: MessageRole;
  content: MessagePart[];
  attachments?: AttachmentMetadata[] | undefined;
  sources?: MessageSource[] | undefined;
  status?: MessageStatus | undefined;
};

type Owner = { ownerEmail: string };

const threadColumns = {
  id: threads.id,
  title: threads.title,
  status: threads.status,
  createdAt: threads.createdAt,
  updatedAt: threads.updatedAt,
};

const messageColumns = {
  id: messages.id,
  threadId: messages.threadId,
  parentId: messages.parentId,
  role: messages.role,
  content: messages.content,
  attachments: messages.attachments,
  sources: messages.sources,
  status: messages.status,
  createdAt: messages.createdAt,
};

/** Sessions keep the address as the identity provider sent it; ownership compares it lower-cased. */
const normalizedOwner = (ownerEmail: string) => ownerEmail.toLowerCase();

const ownedThread = (ownerEmail: string, threadId: string) =>
  and(eq(threads.id, threadId), eq(threads.ownerEmail, normalizedOwner(ownerEmail)));

/** A chat's title from its first question: its text on one line, cut after a whole word to at most 60 characters. */
export function titleFromContent(content: MessagePart[]): string | undefined {
  const text = content
    .map((part) => part.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  if (text.length <= maxDerivedTitleLength) return text;
  const cut = text.slice(0, maxDerivedTitleLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > maxDerivedTitleLength / 2 ? cut.slice(0, lastSpace) : cut.trimEnd()}…`;
}

/** The owner's threads, most recently active first. */
export async function listThreads(
  db: Database,
  { ownerEmail, status }: Owner & { status?: ThreadStatus | undefined },
): Promise<Thread[]> {
  return db
    .select(threadColumns)
    .from(threads)
    .where(and(eq(threads.ownerEmail, normalizedOwner(ownerEmail)), status ? eq(threads.status, status) : undefined))
    .orderBy(desc(threads.updatedAt), desc(threads.createdAt));
}

export async function createThread(
  db: Database,
  { ownerEmail, title }: Owner & { title?: string | undefined },
): Promise<Thread> {
  const [thread] = await db
    .insert(threads)
    .values({ id: randomUUID(), ownerEmail: normalizedOwner(ownerEmail), title: title ?? newThreadTitle })
    .returning(threadColumns);
  if (!thread) throw new Error('Inserting a thread returned no row');
  return thread;
}

/** The thread and every message of every branch, oldest first, each with its feedback; undefined if not the owner's. */
export async function getThreadWithMessages(
  db: Database,
  { ownerEmail, threadId }: Owner & { threadId: string },
): Promise<ThreadWithMessages | undefined> {
  const [thread] = await db.select(threadColumns).from(threads).where(ownedThread(ownerEmail, threadId)).limit(1);
  if (!thread) return undefined;
  const rows = await db
    .select({ message: messageColumns, feedback })
    .from(messages)
    .leftJoin(feedback, eq(feedback.messageId, messages.id))
    .where(eq(messages.threadId, thread.id))
    .orderBy(asc(messages.createdAt), asc(messages.sequence));
  return {
    thread,
    messages: rows.map((row) => ({
      ...row.message,
      feedback: row.feedback
        ? { rating: row.feedback.rating, comment: row.feedback.comment, updatedAt: row.feedback.updatedAt }
        : null,
    })),
  };
}

/**
 * Adds a message under `parentId` (null for the first). A second message with the same parent starts a branch.
 * Marks the thread active, and names a still untitled thread after its first question.
 */
export async function appendMessage(
  db: Database,
  { ownerEmail, threadId, message }: Owner & { threadId: string; message: NewMessage },
): Promise<Message> {
  return db.transaction(async (tx) => {
    // Locked so two first questions sent at once cannot both decide they name the thread.
    const [thread] = await tx
      .select({ title: threads.title })
      .from(threads)
      .where(ownedThread(ownerEmail, threadId))
      .for('update');
    if (!thread) throw threadNotFound();
    if (message.parentId !== null) {
      const [parent] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.id, message.parentId), eq(messages.threadId, threadId)));
      if (!parent) {
        throw new ConversationError('bad_request:parent_id', 'parentId must be null or a message of the same chat.');
      }
    }
    const title =
      message.role === 'user' && thread.title === newThreadTitle ? await firstTitle(tx, threadId, message) : undefined;

    const id = message.id ?? randomUUID();
    const [row] = await tx
      .insert(messages)
      .values({
        id,
        threadId,
        parentId: message.parentId,
        role: message.role,
        content: message.content,
        attachments: message.attachments ?? [],
        sources: message.sources ?? [],
        status: message.status ?? 'complete',
      })
      .onConflictDoNothing()
      .returning(messageColumns);
    if (!row) throw new ConversationError('conflict:message_id', `A message with id ${id} already exists.`);
    await tx
      .update(threads)
      .set({ updatedAt: sql`now()`, ...(title ? { title } : {}) })
      .where(eq(threads.id, threadId));
    return { ...row, feedback: null };
  });
}

async function firstTitle(db: Database, threadId: string, message: NewMessage): Promise<string | undefined> {
  const [earlier] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.role, 'user')))
    .limit(1);
  return earlier ? undefined : titleFromContent(message.content);
}

export async function renameThread(
  db: Database,
  { ownerEmail, threadId, title }: Owner & { threadId: string; title: string },
): Promise<Thread> {
  const [thread] = await db
    .update(threads)
    .set({ title })
    .where(ownedThread(ownerEmail, threadId))
    .returning(threadColumns);
  if (!thread) throw threadNotFound();
  return thread;
}

/** Only a regular thread can be archived (spec section 4). */
export function archiveThread(db: Database, target: Owner & { threadId: string }): Promise<Thread> {
  return moveThread(db, target, { from: 'regular', to: 'archived' });
}

/** Only an archived thread can be unarchived (spec section 4). */
export function unarchiveThread(db: Database, target: Owner & { threadId: string }): Promise<Thread> {
  return moveThread(db, target, { from: 'archived', to: 'regular' });
}

async function moveThread(
  db: Database,
  { ownerEmail, threadId }: Owner & { threadId: string },
  { from, to }: { from: ThreadStatus; to: ThreadStatus },
): Promise<Thread> {
  const [moved] = await db
    .update(threads)
    .set({ status: to })
    .where(and(ownedThread(ownerEmail, threadId), eq(threads.status, from)))
    .returning(threadColumns);
  if (moved) return moved;
  const [existing] = await db.select({ id: threads.id }).from(threads).where(ownedThread(ownerEmail, threadId));
  if (!existing) throw threadNotFound();
  throw new ConversationError(
    'conflict:thread_status',
    `Only a ${from} chat can become ${to}; this one is ${to} already.`,
  );
}

/** Renames and moves a thread in one step: either both happen or neither does. */
export async function updateThread(
  db: Database,
  {
    ownerEmail,
    threadId,
    title,
    status,
  }: Owner & { threadId: string; title?: string | undefined; status?: ThreadStatus | undefined },
): Promise<Thread> {
  return db.transaction(async (tx) => {
    const target = { ownerEmail, threadId };
    let thread: Thread | undefined;
    if (status === 'archived') thread = await archiveThread(tx, target);
    if (status === 'regular') thread = await unarchiveThread(tx, target);
    if (title !== undefined) thread = await renameThread(tx, { ...target, title });
    if (thread) return thread;
    const [current] = await tx.select(threadColumns).from(threads).where(ownedThread(ownerEmail, threadId));
    if (!current) throw threadNotFound();
    return current;
  });
}

/** Deletes the thread with its messages and their feedback. */
export async function deleteThread(
  db: Database,
  { ownerEmail, threadId }: Owner & { threadId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    // The questions log forgets what was asked in a deleted conversation, as the thread forgets its messages.
    const answersInThread = tx
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(threads, eq(threads.id, messages.threadId))
      .where(ownedThread(ownerEmail, threadId));
    await tx
      .delete(questions)
      .where(
        and(eq(questions.ownerEmail, normalizedOwner(ownerEmail)), inArray(questions.answerMessageId, answersInThread)),
      );
    const deleted = await tx.delete(threads).where(ownedThread(ownerEmail, threadId)).returning({ id: threads.id });
    if (deleted.length === 0) throw threadNotFound();
  });
}

async function findOwnedMessage(db: Database, ownerEmail: string, messageId: string) {
  const [message] = await db
    .select({ id: messages.id, role: messages.role })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .where(and(eq(messages.id, messageId), eq(threads.ownerEmail, normalizedOwner(ownerEmail))));
  return message;
}

/** Records the reader's rating of an answer, replacing any earlier one. */
export async function setFeedback(
  db: Database,
  {
    ownerEmail,
    messageId,
    rating,
    comment,
  }: Owner & { messageId: string; rating: FeedbackRating; comment?: string | undefined },
): Promise<MessageFeedback> {
  const message = await findOwnedMessage(db, ownerEmail, messageId);
  if (!message) throw messageNotFound();
  if (message.role !== 'assistant') {
    throw new ConversationError('bad_request:feedback_role', 'Only answers from Dev Copilot can be rated.');
  }
  const values = { rating, comment: comment ?? null, ownerEmail: normalizedOwner(ownerEmail), updatedAt: sql`now()` };
  const [saved] = await db
    .insert(feedback)
    .values({ messageId, ...values })
    .onConflictDoUpdate({ target: feedback.messageId, set: values })
    .returning({ rating: feedback.rating, comment: feedback.comment, updatedAt: feedback.updatedAt });
  if (!saved) throw new Error(`Saving feedback on message ${messageId} returned no row`);
  return saved;
}

export async function clearFeedback(db: Database, { ownerEmail, messageId }: Owner & { messageId: string }) {
  if (!(await findOwnedMessage(db, ownerEmail, messageId))) throw messageNotFound();
  await db.delete(feedback).where(eq(feedback.messageId, messageId));
}
