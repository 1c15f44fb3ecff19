import { randomUUID } from 'node:crypto';
import {
  type AnswerConfidence,
  type AnswerSource,
  ApiError,
  type AttachmentMetadata,
  errorDetails,
  type FeedbackRating,
  type HandbookSearchPart,
  type MessagePart,
  type MessageRole,
  type MessageStatus,
  maxMessagesPerThread,
  storableText,
  textOfContent,
} from '@acme/contract';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import {
  type ForReader,
  getThreadWithMessages,
  type Message,
  type MessageFeedback,
  messageColumns,
  messageNotFound,
  newThreadTitle,
  ownedThread,
  threadNotFound,
} from './conversations.js';
import type { Database } from './database.js';
import { feedback, messages, threads } from './schema.js';

const maxDerivedTitleLength = 60;

export type NewMessage = {
  /** Made here (a UUID) unless given; only tests give one, to refer to the message before it is stored. */
  id?: string | undefined;
  parentId: string | null;
  role: MessageRole;
  content: MessagePart[];
  attachments?: AttachmentMetadata[] | undefined;
  sources?: AnswerSource[] | undefined;
  status?: MessageStatus | undefined;
};

/** A chat's title from its first question: its text on one line, cut after a whole word to at most 60 characters. */
export function titleFromContent(content: MessagePart[]): string | undefined {
  const text = textOfContent(content).replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  if (text.length <= maxDerivedTitleLength) return text;
  const cut = text.slice(0, maxDerivedTitleLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > maxDerivedTitleLength / 2 ? cut.slice(0, lastSpace) : cut.trimEnd()}…`;
}

/** A thread's `updatedAt` just before a message was added to it, and once it was. */
export type ThreadVersion = { before: Date; after: Date };

/**
 * Adds a message under `parentId`: a question under an answer (or null, the first), an answer under a question. A
 * second message with the same parent starts a branch. Marks the thread active, and names a still untitled thread
 * after its first question, again when that question is edited (derivedTitle); `threadTitle` is the thread's title
 * once the message is in, `threadVersion` its `updatedAt` before and after.
 */
export async function appendMessage(
  db: Database,
  { reader, threadId, message }: ForReader & { threadId: string; message: NewMessage },
): Promise<Message & { threadTitle: string; threadVersion: ThreadVersion }> {
  return db.transaction(async (tx) => {
    // Locked so two first questions sent at once cannot both decide they name the thread.
    const [thread] = await tx
      .select({ title: threads.title, updatedAt: threads.updatedAt })
      .from(threads)
      .where(ownedThread(reader, threadId))
      .for('update');
    if (!thread) throw threadNotFound();
    // A question leaves room for its answer; an answer asked again (Refresh) adds one message of its own.
    const [{ held = 0 } = {}] = await tx
      .select({ held: count() })
      .from(messages)
      .where(eq(messages.threadId, threadId));
    if (held + (message.role === 'user' ? 2 : 1) > maxMessagesPerThread) throw new ApiError('conflict:thread_full');
    const parentRole = message.role === 'user' ? 'assistant' : 'user';
    if (message.parentId !== null || message.role === 'assistant') {
      const [parent] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(eq(messages.id, message.parentId ?? ''), eq(messages.threadId, threadId), eq(messages.role, parentRole)),
        );
      if (!parent) {
        throw new ApiError(
          'bad_request:parent_id',
          message.role === 'user' ? errorDetails.place.questionAfterAnswer : errorDetails.place.answerAfterQuestion,
        );
      }
    }
    const title = await derivedTitle(tx, threadId, thread.title, message);
    const [row] = await tx
      .insert(messages)
      .values({
        id: message.id ?? randomUUID(),
        threadId,
        parentId: message.parentId,
        role: message.role,
        content: message.content,
        attachments: message.attachments ?? [],
        sources: message.sources ?? [],
        status: message.status ?? 'complete',
      })
      .returning(messageColumns);
    if (!row) throw new Error('Inserting a message returned no row');
    const [after] = await tx
      .update(threads)
      // The new message's branch is the one shown now: a branch switched to before is forgotten.
      .set({ updatedAt: sql`now()`, headMessageId: null, headAfterSequence: null, ...(title ? { title } : {}) })
      .where(eq(threads.id, threadId))
      .returning({ updatedAt: threads.updatedAt });
    const threadVersion = { before: thread.updatedAt, after: after?.updatedAt ?? thread.updatedAt };
    return { ...row, feedback: null, threadTitle: title ?? thread.title, threadVersion };
  });
}

/**
 * The conversation that leads to a message of the reader's thread, oldest first, ending with that message. Another
 * reader's thread, or a message not in the thread, is not found.
 */
export async function conversationUpTo(
  db: Database,
  { reader, threadId, messageId }: ForReader & { threadId: string; messageId: string },
): Promise<Message[]> {
  const found = await getThreadWithMessages(db, { reader, threadId });
  if (!found) throw threadNotFound();
  const byId = new Map(found.messages.map((message) => [message.id, message]));
  const branch: Message[] = [];
  for (
    let current = byId.get(messageId);
    current;
    current = current.parentId ? byId.get(current.parentId) : undefined
  ) {
    branch.unshift(current);
    if (branch.length > byId.size) throw new Error(`Thread ${threadId} has a cycle of parents`);
  }
  if (branch.length === 0) throw messageNotFound();
  return branch;
}

/** The answers a stored question of the thread has had, oldest first (a Refresh adds one more). */
export async function answersTo(
  db: Database,
  { threadId, questionId }: { threadId: string; questionId: string },
): Promise<Message[]> {
  const rows = await db
    .select({ message: messageColumns })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.parentId, questionId), eq(messages.role, 'assistant')))
    .orderBy(asc(messages.createdAt), asc(messages.sequence));
  return rows.map((row) => ({ ...row.message, feedback: null }));
}

/**
 * The title a first question gives its thread: the first one names a still untitled thread, and an edit of it (another
 * question without a parent) renames the thread as long as its title is still the one a first question gave it. A
 * title the reader chose stays (one equal to a first question's words cannot be told apart, and changes no sooner).
 */
async function derivedTitle(
  db: Database,
  threadId: string,
  current: string,
  message: NewMessage,
): Promise<string | undefined> {
  if (message.role !== 'user' || message.parentId !== null) return undefined;
  const earlier = await db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.role, 'user'), isNull(messages.parentId)));
  return namedAfterFirstQuestion(current, earlier) ? titleFromContent(message.content) : undefined;
}

/** Whether a thread's title is its own (new) or one of its first questions', not one the reader chose. */
export const namedAfterFirstQuestion = (title: string, firstQuestions: ReadonlyArray<{ content: MessagePart[] }>) =>
  title === newThreadTitle || firstQuestions.some(({ content }) => titleFromContent(content) === title);

async function findOwnedMessage(db: Database, reader: string, messageId: string) {
  const [message] = await db
    .select({ id: messages.id, role: messages.role })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .where(and(eq(messages.id, messageId), eq(threads.reader, reader)));
  return message;
}

/** Records the reader's rating of an answer, replacing any earlier one. */
export async function setFeedback(
  db: Database,
  {
    reader,
    messageId,
    rating,
    comment,
  }: ForReader & { messageId: string; rating: FeedbackRating; comment?: string | undefined },
): Promise<MessageFeedback> {
  const message = await findOwnedMessage(db, reader, messageId);
  if (!message) throw messageNotFound();
  if (message.role !== 'assistant') {
    throw new ApiError('bad_request:feedback_role');
  }
  const values = { rating, comment: comment ?? null, reader, updatedAt: sql`now()` };
  const [saved] = await db
    .insert(feedback)
    .values({ messageId, ...values })
    .onConflictDoUpdate({ target: feedback.messageId, set: values })
    .returning({ rating: feedback.rating, comment: feedback.comment, updatedAt: feedback.updatedAt });
  if (!saved) throw new Error(`Saving feedback on message ${messageId} returned no row`);
  return saved;
}

export async function clearFeedback(db: Database, { reader, messageId }: ForReader & { messageId: string }) {
  if (!(await findOwnedMessage(db, reader, messageId))) throw messageNotFound();
  await db.delete(feedback).where(eq(feedback.messageId, messageId));
}

/**
 * Writes an answer's text, sources and status, after the searches the model made for it: while it is written, and
 * once when it ends. False when the answer is gone (its thread was deleted meanwhile).
 */
export async function updateAnswer(
  db: Database,
  {
    answerId,
    searches = [],
    text,
    sources,
    status,
    confidence,
  }: {
    answerId: string;
    searches?: readonly HandbookSearchPart[] | undefined;
    text: string;
    sources: AnswerSource[];
    status: MessageStatus;
    confidence?: AnswerConfidence | undefined;
  },
): Promise<boolean> {
  // A model's text is not checked like a reader's: it may hold what PostgreSQL cannot store.
  const stored = storableText(text);
  const content: MessagePart[] = [...searches, ...(stored ? [{ type: 'text' as const, text: stored }] : [])];
  const updated = await db
    .update(messages)
    .set({ content, sources, status, progressAt: sql`now()`, ...(confidence ? { confidence } : {}) })
    .where(and(eq(messages.id, answerId), eq(messages.role, 'assistant')))
    .returning({ id: messages.id });
  return updated.length > 0;
}
