import { z } from 'zod';
import { answerConfidences, textPartSchema } from './ask.js';
import { handbookSearchPartSchema } from './handbook-search.js';
import { recordId } from './ids.js';
import { maxFeedbackCommentCharacters, maxThreadTitleCharacters } from './limits.js';
import { storableString } from './text.js';

/** The thread API's wire contract: what it accepts and the shapes it answers with. */

/** The values the store keeps too (server/src/store/schema.ts), so a stored row and the wire never disagree. */
export const threadStatuses = ['regular', 'archived'] as const;
export const messageRoles = ['user', 'assistant'] as const;
/** `running`: still being written (the text so far); `incomplete`: stopped by the reader; `error`: failed part-way. */
export const messageStatuses = ['running', 'complete', 'incomplete', 'error'] as const;
export const feedbackRatings = ['positive', 'negative'] as const;

export const threadStatusSchema = z.enum(threadStatuses, { error: 'status must be "regular" or "archived"' });
const title = storableString(
  z
    .string()
    .trim()
    .min(1, 'title must not be empty')
    .max(maxThreadTitleCharacters, `title must be at most ${maxThreadTitleCharacters} characters`),
);
export const messageRoleSchema = z.enum(messageRoles);
export const messageStatusSchema = z.enum(messageStatuses);

/** Threads in one page of the list when the caller does not say, and the most it may ask for. */
export const threadListPageSize = 50;
export const maxThreadListPageSize = 200;

/**
 * Where a page of the thread list starts: the `nextCursor` of the page before, handed back unchanged. It holds the
 * last thread's activity time (microseconds since 1970, as the store keeps it) and id, so a page starts exactly after
 * that thread even when threads are added, moved up by new messages or deleted between the calls.
 */
export const threadListCursorSchema = z
  .string()
  .regex(/^\d{1,18}_[\w-]{1,100}$/, 'after is the nextCursor of a page of this list');

export const threadListQuerySchema = z.strictObject({
  status: threadStatusSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit is a number of chats' })
    .int('limit is a whole number of chats')
    .min(1, 'limit is at least 1')
    .max(maxThreadListPageSize, `limit is at most ${maxThreadListPageSize}`)
    .default(threadListPageSize),
  after: threadListCursorSchema.optional(),
});

export const createThreadRequestSchema = z.strictObject({ title: title.optional() });

export const updateThreadRequestSchema = z
  .strictObject({ title: title.optional(), status: threadStatusSchema.optional() })
  .refine((update) => update.title !== undefined || update.status !== undefined, 'give a title, a status or both');

/** The branch the reader switched to, named by its last message: the thread reopens on it. */
export const threadHeadRequestSchema = z.strictObject({ messageId: recordId });
/** The thread's title once switched: one named after its first question follows the branch's first question. */
export const threadHeadResponseSchema = z.strictObject({ title: z.string() });

export const feedbackRequestSchema = z.strictObject({
  rating: z.enum(feedbackRatings, { error: 'rating must be "positive" or "negative"' }),
  comment: storableString(
    z.string().max(maxFeedbackCommentCharacters, `comment must be at most ${maxFeedbackCommentCharacters} characters`),
  ).optional(),
});

/** What is kept of an attachment: enough to show it was there, never the file itself. */
export const attachmentMetadataSchema = z.strictObject({
  name: z.string(),
  contentType: z.string(),
  size: z.int().nonnegative(),
});

const sourceSchema = z.strictObject({ title: z.string(), url: z.string() });
const timestamp = z.iso.datetime();

export const threadSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: threadStatusSchema,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const feedbackSchema = z.strictObject({
  rating: feedbackRequestSchema.shape.rating,
  comment: z.string().nullable(),
  updatedAt: timestamp,
});

export const messageSchema = z.strictObject({
  id: z.string(),
  threadId: z.string(),
  parentId: z.string().nullable(),
  role: messageRoleSchema,
  /** The answer's text, after any search the model made while writing it. */
  content: z.array(z.discriminatedUnion('type', [textPartSchema, handbookSearchPartSchema])),
  attachments: z.array(attachmentMetadataSchema),
  sources: z.array(sourceSchema),
  status: messageStatusSchema,
  /**
   * How sure an answer was that the handbook answers its question; null for a question, an answer kept from before, or
   * one to small talk (a greeting, thanks, a question about Dev Copilot), which is no verdict on the handbook.
   */
  confidence: z.enum(answerConfidences).nullable(),
  createdAt: timestamp,
  feedback: feedbackSchema.nullable(),
});

/** A message's text: its text parts, without the searches made while writing it. */
export const textOfContent = (content: readonly MessagePart[]): string =>
  content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** A page of the reader's threads, most recently active first; `nextCursor` is null on the last page. */
export const threadListResponseSchema = z.strictObject({
  threads: z.array(threadSchema),
  nextCursor: threadListCursorSchema.nullable(),
});
export const threadWithMessagesResponseSchema = z.strictObject({
  thread: threadSchema,
  messages: z.array(messageSchema),
  /** The last message of the branch the reader last switched to; null: the newest message's branch. */
  headId: z.string().nullable(),
});

export type AttachmentMetadata = z.infer<typeof attachmentMetadataSchema>;
/** A message's content: its text, and in an answer the searches the model made while writing it. */
export type MessagePart = z.infer<typeof messageSchema>['content'][number];
export type ThreadStatus = z.infer<typeof threadStatusSchema>;
export type MessageStatus = z.infer<typeof messageStatusSchema>;
export type MessageRole = z.infer<typeof messageRoleSchema>;
export type FeedbackRating = (typeof feedbackRatings)[number];
export type ThreadDto = z.infer<typeof threadSchema>;
export type MessageDto = z.infer<typeof messageSchema>;
export type FeedbackDto = z.infer<typeof feedbackSchema>;
export type ThreadListResponse = z.infer<typeof threadListResponseSchema>;
export type ThreadListQuery = z.input<typeof threadListQuerySchema>;
export type ThreadWithMessagesResponse = z.infer<typeof threadWithMessagesResponseSchema>;
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
export type ThreadUpdate = z.infer<typeof updateThreadRequestSchema>;
export type ThreadHeadRequest = z.infer<typeof threadHeadRequestSchema>;
export type ThreadHeadResponse = z.infer<typeof threadHeadResponseSchema>;
