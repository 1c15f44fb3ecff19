import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../store/database.js';
import { rateLimitWindows, runningQuestionSlots } from '../store/schema.js';
import type { SharedLimitStore } from './shared-store.js';

const fromNow = (ms: number) => sql`now() + ${ms}::integer * interval '1 millisecond'`;

/**
 * Limits in the PostgreSQL database the instances already share. Times are the database's, so instances whose clocks
 * differ still agree.
 */
export function postgresLimitStore(db: Database): SharedLimitStore {
  return {
    async count(key, windowMs) {
      const ended = sql`${rateLimitWindows.endsAt} <= now()`;
      // One statement: two instances counting the same key at once both land, one after the other.
      const [counted] = await db
        .insert(rateLimitWindows)
        .values({ key, count: 1, endsAt: fromNow(windowMs) })
        .onConflictDoUpdate({
          target: rateLimitWindows.key,
          set: {
            count: sql`case when ${ended} then 1 else ${rateLimitWindows.count} + 1 end`,
            endsAt: sql`case when ${ended} then excluded.ends_at else ${rateLimitWindows.endsAt} end`,
          },
        })
        .returning({
          current: rateLimitWindows.count,
          ttl: sql<number>`ceil(extract(epoch from ${rateLimitWindows.endsAt} - now()) * 1000)::integer`,
        });
      if (!counted) throw new Error(`counting ${key} returned no row`);
      return counted;
    },
    takeSlot: (reader, max, lifetimeMs) =>
      db.transaction(async (transaction) => {
        // Instances taking a slot for one reader take turns, so two never both take the last one; the lock ends with
        // the transaction.
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtext(${`running-questions:${reader}`}))`);
        const ofReader = eq(runningQuestionSlots.reader, reader);
        await transaction
          .delete(runningQuestionSlots)
          .where(and(ofReader, lte(runningQuestionSlots.expiresAt, sql`now()`)));
        const [held] = await transaction.select({ slots: count() }).from(runningQuestionSlots).where(ofReader);
        if ((held?.slots ?? 0) >= max) return undefined;
        const id = randomUUID();
        await transaction.insert(runningQuestionSlots).values({ id, reader, expiresAt: fromNow(lifetimeMs) });
        return id;
      }),
    async refreshSlots(slots, lifetimeMs) {
      if (slots.length === 0) return;
      await db
        .update(runningQuestionSlots)
        .set({ expiresAt: fromNow(lifetimeMs) })
        .where(
          inArray(
            runningQuestionSlots.id,
            slots.map((slot) => slot.id),
          ),
        );
    },
    async releaseSlot(slot) {
      await db.delete(runningQuestionSlots).where(eq(runningQuestionSlots.id, slot.id));
    },
    // The database is the server's store; whoever opened it closes it.
    close: async () => {},
  };
}

/** Ended rows are removed this long after their end by the app's clock, so a database clock behind it loses nothing. */
const sweepMarginMs = 60_000;

/**
 * For maintenance: removes counting windows that have ended and slots of running questions that have expired (an
 * instance killed mid-answer never releases its slot). Each reader's key is otherwise rewritten in place, so the
 * tables hold one row per reader who ever asked, until this runs. Returns how many rows went.
 */
export async function deleteEndedLimits(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - sweepMarginMs);
  const [windows, slots] = await Promise.all([
    db.delete(rateLimitWindows).where(lte(rateLimitWindows.endsAt, before)).returning({ key: rateLimitWindows.key }),
    db
      .delete(runningQuestionSlots)
      .where(lte(runningQuestionSlots.expiresAt, before))
      .returning({ id: runningQuestionSlots.id }),
  ]);
  return windows.length + slots.length;
}
