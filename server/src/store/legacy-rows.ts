import { eq } from 'drizzle-orm';
import type { Database } from './database.js';
import { feedback, questions, searchQueries, threads } from './schema.js';

/**
 * Hands the rows written before subjects were kept (keyed `legacyReader`, an `email:` key) to the subject now signed
 * in with that address. Called at sign-in only for an allowed session, whose address is verified and plain ASCII, so
 * the first such sign-in of the exact address claims them, and a look-alike address never can. Returns the number of
 * threads claimed.
 */
export async function claimLegacyReaderRows(
  db: Database,
  { reader, legacyReader }: { reader: string; legacyReader: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(threads)
      .set({ reader })
      .where(eq(threads.reader, legacyReader))
      .returning({ id: threads.id });
    await tx.update(feedback).set({ reader }).where(eq(feedback.reader, legacyReader));
    await tx.update(questions).set({ reader }).where(eq(questions.reader, legacyReader));
    await tx.update(searchQueries).set({ reader }).where(eq(searchQueries.reader, legacyReader));
    return claimed.length;
  });
}
