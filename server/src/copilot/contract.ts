import { z } from 'zod';

/** The spec's limit for one image, decoded (5 MB). */
export const maxImageBytes = 5_242_880;
export const maxImagesPerMessage = 4;
export const maxMessages = 50;
export const maxTextCharacters = 32_000;
export const allowedImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const textPart = z.strictObject({ type: z.literal('text'), text: z.string() });

const imageAttachment = z.strictObject({
  type: z.literal('image'),
  contentType: z.string(),
  /** Base64 of the file, without the data-URL prefix. */
  content: z.string(),
  name: z.string().max(255).optional(),
});

const message = z.strictObject({
  role: z.enum(['user', 'assistant'], {
    error: 'role must be "user" or "assistant"; the server owns the system prompt',
  }),
  content: z.array(textPart, { error: 'content must be a list of {type: "text", text} parts' }),
  attachments: z
    .array(imageAttachment, { error: 'attachments must be a list of {type: "image", contentType, content}' })
    .max(maxImagesPerMessage, `at most ${maxImagesPerMessage} images per message`)
    .default([]),
});

/** POST /api/askAi, as spec section 7 describes it, plus the optional page the reader is on. */
export const askAiRequestSchema = z
  .strictObject({
    messages: z.array(message).min(1, 'messages must not be empty').max(maxMessages, `at most ${maxMessages} messages`),
    page: z.string().max(2048).optional(),
    /** The id the widget stores the answer under; the questions log uses it so feedback finds its question. */
    answerId: z
      .string()
      .regex(/^[\w-]{1,100}$/, 'answerId is 1-100 letters, digits, "_" or "-"')
      .optional(),
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

export type AskAiSource = { title: string; url: string };

/**
 * The JSON answer: `data` is the markdown the widget shows (spec section 7); the rest is ours. `sources` are the
 * sections the answer rests on, empty when the handbook does not cover the question (`covered: false`); the pages
 * nearest to such a question are in `closest`.
 */
export type AskAiResponse = {
  id: string;
  data: string;
  covered: boolean;
  sources: AskAiSource[];
  closest: AskAiSource[];
  mode: 'docs-only' | 'model';
};

/** Turns zod's issues into one sentence a developer can act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
