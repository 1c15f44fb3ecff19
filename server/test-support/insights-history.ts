import type { AnswerConfidence } from '@acme/contract';
import { eq, sql } from 'drizzle-orm';
import { createThread } from '../src/store/conversations.js';
import type { Database } from '../src/store/database.js';
import { appendMessage, setFeedback } from '../src/store/messages.js';
import { recordQuestion } from '../src/store/questions.js';
import { feedback, questions, searchQueries } from '../src/store/schema.js';
import { recordSearchQuery } from '../src/store/search-queries.js';

const dayMs = 86_400_000;
const hourMs = 3_600_000;
export const leakedToken = 'npm_abcdefghijklmnopqrstuvwx';

/** A time `days` days and `hours` hours before `now`. */
export const ago = (now: Date, days: number, hours = 0) => new Date(now.getTime() - days * dayMs - hours * hourMs);

/**
 * A hundred days of logged questions and searches, a few a day, of every kind the insights tell apart: each
 * confidence, old entries without one, answers citing two sections of one page, searches in mixed case with and
 * without results, opened or not, and a credential typed into the search box.
 */
export async function seedInsightsHistory(db: Database, now: Date) {
  const pages = ['/firestore-ttl', '/installing-typesense-instance', '/getting-started-acme-cli'];
  const confidences = ['answered', 'closest', 'none', null] as const;
  const rows: Array<typeof questions.$inferInsert> = [];
  const searches: Array<typeof searchQueries.$inferInsert> = [];
  for (let day = 0; day < 100; day++) {
    for (let index = 0; index < (day % 4) + 1; index++) {
      const page = pages[(day + index) % pages.length] ?? '/';
      const confidence = confidences[(day * 3 + index) % confidences.length] ?? null;
      rows.push({
        id: `history-${day}-${index}`,
        reader: `reader-${index % 3}`,
        question: `How do I rotate the key of service${day % 5} step${index}?`,
        mode: 'docs-only',
        covered: confidence === null ? index % 2 === 0 : confidence === 'answered',
        confidence,
        nearestPageUrl: index % 3 === 2 ? null : `${page}#part`,
        nearestPageTitle: index % 3 === 2 ? null : `Page ${page}`,
        sources: [
          { url: `${page}#one`, title: `Page ${page} › One` },
          { url: `${page}#two`, title: `Page ${page} › Two` },
          ...(index === 1 ? [{ url: '/firestore-ttl#limits', title: 'Firestore TTL › Limits' }] : []),
        ],
        answerMessageId: `history-answer-${day}-${index}`,
        createdAt: ago(now, day, index * 5 + 1),
      });
      searches.push({
        id: `search-${day}-${index}`,
        reader: `reader-${index % 3}`,
        query: [`Kubectl`, `kubectl`, `typesense key`, `TTL limits`][(day + index) % 4] ?? 'x',
        resultCount: (day + index) % 3 === 0 ? 0 : 4,
        clicked: (day + index) % 5 === 0,
        createdAt: ago(now, day, index * 7 + 2),
      });
    }
  }
  await db.insert(questions).values(rows);
  await db.insert(searchQueries).values(searches);
  await recordSearchQuery(db, {
    reader: 'reader-1',
    query: `npm token=${leakedToken}`,
    resultCount: 2,
    at: ago(now, 5),
  });
}

type Source = { url: string; title: string };
const troubleshooting: Source = {
  url: '/getting-started-acme-cli#troubleshooting',
  title: 'Getting Started › Troubleshooting',
};

/**
 * A conversation whose answer, citing `source` with `confidence`, was logged and rated down (at `at`, or now);
 * returns its thread's id.
 */
export async function ratedDownConversation(
  db: Database,
  {
    reader,
    question,
    comment,
    at,
    source = troubleshooting,
    confidence = 'none',
  }: { reader: string; question: string; comment: string; at?: Date; source?: Source; confidence?: AnswerConfidence },
) {
  const thread = await createThread(db, { reader });
  const asked = await appendMessage(db, {
    reader,
    threadId: thread.id,
    message: { parentId: null, role: 'user', content: [{ type: 'text', text: question }] },
  });
  const answer = await appendMessage(db, {
    reader,
    threadId: thread.id,
    message: { parentId: asked.id, role: 'assistant', content: [], sources: [source] },
  });
  await recordQuestion(db, {
    reader,
    question,
    mode: 'docs-only',
    covered: confidence === 'answered',
    confidence,
    nearestPage: null,
    sources: [source],
    answerMessageId: answer.id,
  });
  await setFeedback(db, { reader, messageId: answer.id, rating: 'negative', comment });
  if (at) {
    await db.update(questions).set({ createdAt: at }).where(eq(questions.answerMessageId, answer.id));
    await db.update(feedback).set({ updatedAt: at }).where(eq(feedback.messageId, answer.id));
  }
  return thread.id;
}

/** How many days are summed up, and how many spans of them: whether a read went through the sums at all. */
export async function rolledUp(db: Database): Promise<{ days: number; spans: number }> {
  const result = await db.execute(
    sql`select (select count(*)::int from insights_rolled_days) as days, (select count(*)::int from insights_spans) as spans`,
  );
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    days: number;
    spans: number;
  }>;
  return row ?? { days: 0, spans: 0 };
}
