import { eq } from 'drizzle-orm';
import type { Database } from './database.js';
import { feedback, questions, searchQueries, threads } from './schema.js';

/**
 * Hands the rows written before subjects were kept (owner `legacyOwner`, an `email:` key) to the subject now signed
 * in with that address. Called at sign-in only for an allowed session, whose address is verified and plain ASCII, so
 * the first such sign-in of the exact address claims them, and a look-alike address never can. Returns the number of
 * threads claimed.
 */
export async function claimLegacyOwnership(
  db: Database,
  { owner, legacyOwner }: { owner: string; legacyOwner: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(threads)
      .set({ owner })
      .where(eq(threads.owner, legacyOwner))
      .returning({ id: threads.id });
    await tx.update(feedback).set({ owner }).where(eq(feedback.owner, legacyOwner));
    await tx.update(questions).set({ owner }).where(eq(questions.owner, legacyOwner));
    await tx.update(searchQueries).set({ owner }).where(eq(searchQueries.owner, legacyOwner));
    return claimed.length;
  });
}
