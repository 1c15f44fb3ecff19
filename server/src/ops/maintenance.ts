import type { Config } from '../config.js';
import { deleteEndedLimits } from '../limits/postgres-store.js';
import { deleteUnusedAccounts } from '../store/accounts.js';
import type { Database } from '../store/database.js';
import { describeError } from '../store/describe-error.js';
import type { MaintenanceLock } from '../store/maintenance-lock.js';
import { deleteStaleOAuthRows } from '../store/oauth.js';
import { deleteExpiredPersonalTokens } from '../store/personal-tokens.js';
import { pruneQuestions } from '../store/questions.js';
import { pruneSearchQueries } from '../store/search-queries.js';
import { deleteExpiredSessions } from '../store/sessions.js';

/** One kind of row that would otherwise only grow, and how to remove what is no longer needed; returns how many. */
export type MaintenanceTask = { name: string; remove(now: Date): Promise<number> };

/**
 * What the database keeps that nobody deletes on the way: sessions past their expiry (a reader who never comes back
 * is never ended on sight), questions and search-box queries older than the log's retention, the shared limits' ended
 * windows and expired slots (PostgreSQL limits), personal access tokens past their expiry, and OAuth codes past
 * theirs and clients nobody authorized within an hour, and accounts none of those refer to any more.
 * Conversations are the readers' to delete.
 */
export function maintenanceTasks(
  db: Database,
  config: Pick<Config, 'sessionIdleTimeoutMs' | 'questionLogDays'>,
): MaintenanceTask[] {
  return [
    {
      name: 'expired_sessions',
      remove: (now) => deleteExpiredSessions(db, { now, idleTimeoutMs: config.sessionIdleTimeoutMs }),
    },
    {
      name: 'old_questions',
      remove: (now) => pruneQuestions(db, new Date(now.getTime() - config.questionLogDays * 86_400_000)),
    },
    {
      name: 'old_search_queries',
      remove: (now) => pruneSearchQueries(db, new Date(now.getTime() - config.questionLogDays * 86_400_000)),
    },
    { name: 'ended_limits', remove: (now) => deleteEndedLimits(db, now) },
    { name: 'expired_tokens', remove: (now) => deleteExpiredPersonalTokens(db, { now }) },
    { name: 'stale_oauth', remove: (now) => deleteStaleOAuthRows(db, { now }) },
    { name: 'unused_accounts', remove: (now) => deleteUnusedAccounts(db, { now }) },
  ];
}

export type MaintenanceReport =
  | { outcome: 'skipped' }
  | { outcome: 'ran'; removed: Record<string, number>; failed: Record<string, string>; ms: number }
  | { outcome: 'failed'; reason: string };

/**
 * One round: when this instance holds the round, every task in turn. A task that fails is reported and the others
 * still run; nothing here throws, the next round simply tries again.
 */
export async function runMaintenance(
  lock: MaintenanceLock,
  tasks: readonly MaintenanceTask[],
  now = new Date(),
): Promise<MaintenanceReport> {
  const started = performance.now();
  try {
    if (!(await lock.take())) return { outcome: 'skipped' };
  } catch (error) {
    return { outcome: 'failed', reason: describeError(error) };
  }
  const removed: Record<string, number> = {};
  const failed: Record<string, string> = {};
  for (const task of tasks) {
    try {
      removed[task.name] = await task.remove(now);
    } catch (error) {
      failed[task.name] = describeError(error);
    }
  }
  return { outcome: 'ran', removed, failed, ms: Math.round(performance.now() - started) };
}

/**
 * Runs `round` at once, then at every multiple of `intervalMs` on the wall clock, so instances started at different
 * times still try in the same moment and the lock picks one of them. Rounds never overlap: the next is planned when
 * the last has ended, never at a moment already planned (a timer may fire a millisecond early by Date.now()). The
 * round is told the moment it was planned for; the timer does not keep the process alive.
 */
export function scheduleRounds(intervalMs: number, round: (plannedAt: number) => Promise<void>) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let plannedAt = 0;
  const run = (at: number) => {
    running = round(at).finally(() => {
      running = undefined;
      if (stopped) return;
      const now = Date.now();
      plannedAt = Math.max(plannedAt + intervalMs, (Math.floor(now / intervalMs) + 1) * intervalMs);
      timer = setTimeout(run, plannedAt - now, plannedAt).unref();
    });
  };
  return {
    start: () => run(Date.now()),
    /** No further round; resolves once a round under way has ended. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
