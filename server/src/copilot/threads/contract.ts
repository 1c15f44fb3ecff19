import { z } from 'zod';
import { maxImagesPerMessage, maxTextCharacters } from '../contract.js';

/** The thread API's wire contract: request bodies it accepts and the shapes it answers with. */

const threadStatus = z.enum(['regular', 'archived'], { error: 'status must be "regular" or "archived"' });
const title = z.string().trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters');
const messageRole = z.enum(['user', 'assistant'], { error: 'role must be "user" or "assistant"' });
const messageStatus = z.enum(['complete', 'incomplete', 'error'], {
  error: 'status must be "complete", "incomplete" or "error"',
});
const messageId = z.string().regex(/^[\w-]{1,100}$/, 'message ids are 1-100 letters, digits, "_" or "-"');

export const threadListQuerySchema = z.strictObject({ status: threadStatus.optional() });

export const createThreadRequestSchema = z.strictObject({ title: title.optional() });

export const updateThreadRequestSchema = z
  .strictObject({ title: title.optional(), status: threadStatus.optional() })
  .refine((update) => update.title !== undefined || update.status !== undefined, 'give a title, a status or both');

const textPart = z.strictObject({ type: z.literal('text'), text: z.string() });

/** What is kept of an attachment; the image itself is sent to /api/askAi, never stored. */
const attachmentMetadata = z.strictObject({
  name: z.string().max(255),
  contentType: z.string().max(255),
  size: z.int().nonnegative(),
});

const source = z.strictObject({ title: z.string().max(500), url: z.string().max(2048) });

export const appendMessageRequestSchema = z
  .strictObject({
    id: messageId.optional(),
    parentId: messageId.nullable(),
    role: messageRole,
    content: z.array(textPart, { error: 'content must be a list of {type: "text", text} parts' }).max(100),
    attachments: z
      .array(attachmentMetadata, { error: 'attachments must be a list of {name, contentType, size}' })
      .max(maxImagesPerMessage, `at most ${maxImagesPerMessage} attachments per message`)
      .optional(),
    sources: z.array(source).max(50, 'at most 50 sources').optional(),
    status: messageStatus.optional(),
  })
  .refine((message) => message.content.reduce((total, part) => total + part.text.length, 0) <= maxTextCharacters, {
    message: `at most ${maxTextCharacters} characters of text in all`,
    path: ['content'],
  });

export const feedbackRequestSchema = z.strictObject({
  rating: z.enum(['positive', 'negative'], { error: 'rating must be "positive" or "negative"' }),
  comment: z.string().max(1000, 'comment must be at most 1000 characters').optional(),
});

const timestamp = z.iso.datetime();

export const threadSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: threadStatus,
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
  role: messageRole,
  content: z.array(textPart),
  attachments: z.array(attachmentMetadata),
  sources: z.array(source),
  status: messageStatus,
  createdAt: timestamp,
  feedback: feedbackSchema.nullable(),
});

export const threadListResponseSchema = z.strictObject({ threads: z.array(threadSchema) });
export const threadWithMessagesResponseSchema = z.strictObject({
  thread: threadSchema,
  messages: z.array(messageSchema),
});

export type ThreadDto = z.infer<typeof threadSchema>;
export type MessageDto = z.infer<typeof messageSchema>;
export type FeedbackDto = z.infer<typeof feedbackSchema>;
