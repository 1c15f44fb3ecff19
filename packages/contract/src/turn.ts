import { z } from 'zod';
import { type AnswerConfidence, imageAttachmentSchema } from './ask.js';
import { recordId } from './ids.js';
import { maxImagesPerMessage, maxPagePathCharacters, maxTextCharacters } from './limits.js';
import { storableString } from './text.js';

/**
 * POST /api/turns: one turn of a stored conversation. The server checks the reader owns the thread, stores the
 * question (unless it answers an earlier one again), answers, streams the answer as an AI SDK UI message stream,
 * and stores it. The browser never says what the answer was.
 */
export const turnRequestSchema = z
  .strictObject({
    threadId: recordId,
    /** A new question after this message (an answer of the thread), or `null` for a first question. */
    parentId: recordId.nullable().optional(),
    /** Answer this stored question again (Refresh): a new answer beside the earlier ones. */
    retryOf: recordId.optional(),
    text: storableString(
      z.string().max(maxTextCharacters, `text must be at most ${maxTextCharacters} characters`),
    ).default(''),
    /** The question's images; with `retryOf`, the widget sends them again when it still has them. */
    attachments: z
      .array(imageAttachmentSchema, { error: 'attachments must be a list of {type: "image", contentType, content}' })
      .max(maxImagesPerMessage, `at most ${maxImagesPerMessage} images per message`)
      .default([]),
    /** The page the reader is on: it ranks that page's sections first. */
    page: storableString(z.string().max(maxPagePathCharacters)).optional(),
  })
  .superRefine((turn, context) => {
    const asking = turn.parentId !== undefined;
    if (asking === (turn.retryOf !== undefined)) {
      context.addIssue({ code: 'custom', message: 'give either parentId (a new question) or retryOf (answer again)' });
    }
    if (asking && turn.text.trim() === '' && turn.attachments.length === 0) {
      context.addIssue({
        code: 'custom',
        message: 'the question is empty: write some text or attach a screenshot',
        path: ['text'],
      });
    }
  });

export type TurnRequest = z.input<typeof turnRequestSchema>;
export type ParsedTurnRequest = z.output<typeof turnRequestSchema>;

/**
 * The data parts of a turn's stream (`data-<name>` in the UI message stream protocol), besides its text and
 * `source-url` parts. Each is one the widget reads: the pages near an uncovered question are in the answer's text.
 */
export type TurnDataParts = {
  /**
   * First: the ids the server gave the question and the answer, and the thread's title with the question stored (a
   * first question names the thread), so the widget need not read the thread again for it.
   */
  turn: {
    threadId: string;
    questionId: string;
    answerId: string;
    title: string;
    /**
     * The thread's `updatedAt` before this turn's question was stored and once its answer was: a widget that had read
     * the thread whole at `before` knows it whole at `after` without reading it again. Absent when another message
     * came between the two.
     */
    threadVersion?: { before: string; after: string } | undefined;
  };
  /**
   * A link to the handbook in the answer, checked against the build before the text that closes it is sent: `href`
   * is where it leads, or null when no such page or section exists (the widget shows such a link as plain text).
   */
  link: { url: string; href: string | null };
  /** Once the answer is written: how sure it is that the handbook answers the question; never sent after small talk. */
  confidence: { confidence: AnswerConfidence };
  /** Why the answer stopped, just before the stream's `error` part. */
  failure: { code: string; message: string };
};
