import { randomUUID } from 'node:crypto';
import { type AnswerConfidence, type AnswerMode, type AnswerSource, storableText, textOfContent } from '@acme/contract';
import { and, desc, eq, gte, lt, notExists } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { redactSecrets } from '../redact-secrets.js';
import type { Database } from './database.js';
import { feedback, messages, questions } from './schema.js';

/** Longer questions are kept cut: the report needs what was asked, not a pasted log. */
export const maxRecordedQuestionCharacters = 2000;

export type DocPage = { url: string; title: string };

export type NewQuestion = {
  reader: string;
  /**
   * The question for the report: what the reader typed (a follow-up as typed, not as searched with the question before
   * it), then its screenshots' text. Entries logged before this kept the text searched.
   */
  question: string;
  /** The question as the reader typed it, what the insights show; left out, they show `question`. */
  asked?: string | undefined;
  mode: AnswerMode;
  /** Did the docs answer it (docs-only: `composeDocsOnlyAnswer(...).covered`, true only for `answered`). */
  covered: boolean;
  /** Answered, only the closest the handbook comes, or not covered; left out, the insights read it from `covered`. */
  confidence?: AnswerConfidence | undefined;
  /** The page closest to the question, answered or not; null when the search found nothing. */
  nearestPage: DocPage | null;
  sources?: AnswerSource[] | undefined;
  /** The stored answer's id (the reader rates it under this id), or an id of its own for a stateless askAi call. */
  answerMessageId: string;
};

/** Forgets questions asked before the given time (the log's retention); returns how many. */
export async function pruneQuestions(db: Database, askedBefore: Date): Promise<number> {
  const pruned = await db.delete(questions).where(lt(questions.createdAt, askedBefore)).returning({ id: questions.id });
  return pruned.length;
}

const storable = (text: string) => storableText(redactSecrets(text)).trim().slice(0, maxRecordedQuestionCharacters);

/** Logs one answered question, credentials masked. Recording the same answer twice keeps the first. */
export async function recordQuestion(db: Database, entry: NewQuestion): Promise<void> {
  await db
    .insert(questions)
    .values({
      id: randomUUID(),
      reader: entry.reader,
      question: storable(entry.question),
      asked: entry.asked?.trim() ? storable(entry.asked) : null,
      mode: entry.mode,
      covered: entry.covered,
      confidence: entry.confidence ?? null,
      nearestPageUrl: entry.nearestPage?.url ?? null,
      nearestPageTitle: entry.nearestPage?.title ?? null,
      sources: entry.sources ?? [],
      answerMessageId: entry.answerMessageId,
    })
    .onConflictDoNothing({ target: [questions.reader, questions.answerMessageId] });
}

/** One thing for the docs maintainers to look at: an answer rated down, or a question the docs did not cover. */
export type ReportItem = {
  kind: 'rated-down' | 'not-covered';
  /** When the rating was given, or when the question was asked. */
  at: Date;
  question: string | null;
  comment: string | null;
  /** From the questions log; null for an answer given before the log existed. */
  covered: boolean | null;
  /** How sure the answer was, from the log; null before the log kept it (then `covered` alone tells). */
  confidence: AnswerConfidence | null;
  mode: AnswerMode | null;
  nearestPage: DocPage | null;
  sources: AnswerSource[];
  answerMessageId: string;
};

export type ReportQuery = { since?: Date | undefined; limit: number };

const questionMessages = alias(messages, 'question_messages');

/**
 * The newest `limit` report items since `since`, newest first. A question that was not covered and whose answer was
 * also rated down appears once, as rated down.
 */
export async function findReportItems(db: Database, { since, limit }: ReportQuery): Promise<ReportItem[]> {
  const ratedDown = await db
    .select({
      at: feedback.updatedAt,
      comment: feedback.comment,
      answerMessageId: feedback.messageId,
      sources: messages.sources,
      askedContent: questionMessages.content,
      logged: {
        question: questions.question,
        covered: questions.covered,
        confidence: questions.confidence,
        mode: questions.mode,
        nearestPageUrl: questions.nearestPageUrl,
        nearestPageTitle: questions.nearestPageTitle,
        sources: questions.sources,
      },
    })
    .from(feedback)
    .innerJoin(messages, eq(messages.id, feedback.messageId))
    .leftJoin(questionMessages, eq(questionMessages.id, messages.parentId))
    .leftJoin(questions, and(eq(questions.answerMessageId, feedback.messageId), eq(questions.reader, feedback.reader)))
    .where(and(eq(feedback.rating, 'negative'), since ? gte(feedback.updatedAt, since) : undefined))
    .orderBy(desc(feedback.updatedAt))
    .limit(limit);

  const notCovered = await db
    .select()
    .from(questions)
    .where(
      and(
        eq(questions.covered, false),
        since ? gte(questions.createdAt, since) : undefined,
        notExists(
          db
            .select({ messageId: feedback.messageId })
            .from(feedback)
            .where(
              and(
                eq(feedback.messageId, questions.answerMessageId),
                eq(feedback.reader, questions.reader),
                eq(feedback.rating, 'negative'),
              ),
            ),
        ),
      ),
    )
    .orderBy(desc(questions.createdAt))
    .limit(limit);

  const items: ReportItem[] = [
    ...ratedDown.map((row) => ({
      kind: 'rated-down' as const,
      at: row.at,
      question: askedQuestion(row.askedContent && textOfContent(row.askedContent), row.logged?.question),
      comment: row.comment,
      covered: row.logged?.covered ?? null,
      confidence: row.logged?.confidence ?? null,
      mode: row.logged?.mode ?? null,
      nearestPage: nearestPageOf(row.logged),
      sources: row.sources.length > 0 ? row.sources : (row.logged?.sources ?? []),
      answerMessageId: row.answerMessageId,
    })),
    ...notCovered.map((row) => ({
      kind: 'not-covered' as const,
      at: row.createdAt,
      question: row.question,
      comment: null,
      covered: false,
      confidence: row.confidence,
      mode: row.mode,
      nearestPage: nearestPageOf(row),
      sources: row.sources,
      answerMessageId: row.answerMessageId,
    })),
  ];
  return items.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
}

/**
 * The question as the reader wrote it in the chat, with the text read from its screenshots when the log has it ("what
 * does this mean?" alone tells a maintainer nothing): the log keeps the typed words followed by that text.
 */
function askedQuestion(typed: string | null, logged: string | undefined): string | null {
  const words = typed?.trim();
  const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();
  if (words && logged && spaced(logged).startsWith(spaced(words)) && spaced(logged).length > spaced(words).length) {
    return logged;
  }
  return words || logged || null;
}

function nearestPageOf(row: { nearestPageUrl: string | null; nearestPageTitle: string | null } | null) {
  return row?.nearestPageUrl ? { url: row.nearestPageUrl, title: row.nearestPageTitle ?? row.nearestPageUrl } : null;
}
