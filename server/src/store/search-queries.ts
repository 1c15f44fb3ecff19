import { randomUUID } from 'node:crypto';
import { storableText } from '@acme/contract';
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import { redactSecrets } from '../redact-secrets.js';
import type { Database } from './database.js';
import { searchQueries } from './schema.js';

/** A search query as it is kept: credentials masked, like questions, and trimmed. */
export const storableSearchQuery = (query: string) => storableText(redactSecrets(query)).trim();

/** Logs one search; returns its id, so the reader's next keystrokes can revise it instead of adding rows. */
export async function recordSearchQuery(
  db: Database,
  entry: { reader: string; query: string; resultCount: number; at?: Date | undefined },
): Promise<string> {
  const id = randomUUID();
  await db.insert(searchQueries).values({
    id,
    reader: entry.reader,
    query: storableSearchQuery(entry.query),
    resultCount: entry.resultCount,
    ...(entry.at ? { createdAt: entry.at } : {}),
  });
  return id;
}

/** The reader typed on: the same search, now with this text and this many results. */
export async function reviseSearchQuery(
  db: Database,
  entry: { id: string; reader: string; query: string; resultCount: number },
): Promise<void> {
  await db
    .update(searchQueries)
    .set({ query: storableSearchQuery(entry.query), resultCount: entry.resultCount })
    .where(and(eq(searchQueries.id, entry.id), eq(searchQueries.reader, entry.reader)));
}

/**
 * Marks the reader's newest search with this text (in the last day) as one whose result was opened. Returns false
 * when there is none, which is not an error: the log may have been pruned, or the search never logged.
 */
export async function markSearchResultOpened(
  db: Database,
  { reader, query, now = new Date() }: { reader: string; query: string; now?: Date },
): Promise<boolean> {
  const [newest] = await db
    .select({ id: searchQueries.id })
    .from(searchQueries)
    .where(
      and(
        eq(searchQueries.reader, reader),
        eq(searchQueries.query, storableSearchQuery(query)),
        gte(searchQueries.createdAt, new Date(now.getTime() - 86_400_000)),
      ),
    )
    .orderBy(desc(searchQueries.createdAt))
    .limit(1);
  if (!newest) return false;
  await db.update(searchQueries).set({ clicked: true }).where(eq(searchQueries.id, newest.id));
  return true;
}

/** Forgets searches made before the given time (the same retention as questions); returns how many. */
export async function pruneSearchQueries(db: Database, searchedBefore: Date): Promise<number> {
  const pruned = await db
    .delete(searchQueries)
    .where(lt(searchQueries.createdAt, searchedBefore))
    .returning({ id: searchQueries.id });
  return pruned.length;
}
