import { z } from 'zod';
import {
  maxImagesPerMessage,
  maxMessages,
  maxPagePathCharacters,
  maxTextCharacters,
  maxTextPartsPerMessage,
} from './limits.js';
import { storableString } from './text.js';

export const textPartSchema = z.strictObject({ type: z.literal('text'), text: z.string() });
/** A text part as a request sends it. */
const textPartInputSchema = z.strictObject({ type: z.literal('text'), text: storableString(z.string()) });

/** An image as the spec sends it: its media type and the base64 of the file, without the data-URL prefix. */
export const imageAttachmentSchema = z.strictObject({
  type: z.literal('image'),
  contentType: z.string().max(255),
  content: z.string(),
  name: storableString(z.string().max(255)).optional(),
});

export type ImageAttachment = z.infer<typeof imageAttachmentSchema>;

const askMessageSchema = z.strictObject({
  role: z.enum(['user', 'assistant'], {
    error: 'role must be "user" or "assistant"; the server owns the system prompt',
  }),
  content: z
    .array(textPartInputSchema, { error: 'content must be a list of {type: "text", text} parts' })
    .max(maxTextPartsPerMessage, `at most ${maxTextPartsPerMessage} text parts per message`),
  attachments: z
    .array(imageAttachmentSchema, { error: 'attachments must be a list of {type: "image", contentType, content}' })
    .max(maxImagesPerMessage, `at most ${maxImagesPerMessage} images per message`)
    .default([]),
});

/**
 * POST /api/askAi, as spec section 7 describes it, plus the optional page the reader is on: a stateless call for
 * scripts. The widget uses a turn (./turn.ts), which the server stores.
 */
export const askAiRequestSchema = z
  .strictObject({
    messages: z
      .array(askMessageSchema)
      .min(1, 'messages must not be empty')
      .max(maxMessages, `at most ${maxMessages} messages`),
    page: storableString(z.string().max(maxPagePathCharacters)).optional(),
  })
  .superRefine((request, context) => {
    const characters = request.messages
      .flatMap((entry) => entry.content)
      .reduce((total, part) => total + part.text.length, 0);
    if (characters > maxTextCharacters) {
      context.addIssue({
        code: 'custom',
        message: `at most ${maxTextCharacters} characters of text in all`,
        path: ['messages'],
      });
    }
    const last = request.messages.at(-1);
    if (last?.role !== 'user') {
      context.addIssue({ code: 'custom', message: "the last message must be the user's question", path: ['messages'] });
    }
    const asksSomething = last?.content.some((part) => part.text.trim() !== '') || (last?.attachments.length ?? 0) > 0;
    if (last?.role === 'user' && !asksSomething) {
      context.addIssue({
        code: 'custom',
        message: 'the question is empty: write some text or attach a screenshot',
        path: ['messages'],
      });
    }
  });

export type AskAiRequest = z.infer<typeof askAiRequestSchema>;

/** A section of the handbook an answer rests on, or a page near a question it does not cover. */
export const answerSourceSchema = z.strictObject({ title: z.string(), url: z.string() });
export type AnswerSource = z.infer<typeof answerSourceSchema>;

export const answerModes = ['docs-only', 'model'] as const;
export type AnswerMode = (typeof answerModes)[number];

/**
 * How sure an answer is that the handbook answers the question: `answered` (the key fact, the exact section linked),
 * `closest` (the handbook may not answer it exactly; the closest it comes is quoted and linked) or `none` (not covered:
 * the closest pages and #dev-help). `covered` is true only for `answered`. An answer to small talk (a greeting, thanks,
 * a question about Dev Copilot) quotes nothing: `none` here and in the questions log, yet no verdict the widget shows.
 */
export const answerConfidences = ['answered', 'closest', 'none'] as const;
export type AnswerConfidence = (typeof answerConfidences)[number];

/**
 * The JSON answer: `data` is the markdown to show (spec section 7); the rest is ours. `sources` are the sections the
 * answer quotes (for `answered` and `closest`), empty when the handbook does not cover the question (`none`); the
 * pages nearest to such a question are in `closest`.
 */
export const askAiResponseSchema = z.strictObject({
  data: z.string(),
  covered: z.boolean(),
  confidence: z.enum(answerConfidences),
  sources: z.array(answerSourceSchema),
  closest: z.array(answerSourceSchema),
  mode: z.enum(answerModes),
});
export type AskAiResponse = z.infer<typeof askAiResponseSchema>;
