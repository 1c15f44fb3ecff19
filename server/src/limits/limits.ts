import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/database.js';
import { sharedMinuteStore } from './minute-store.js';
import { OutageGuard } from './outage-guard.js';
import { postgresLimitStore } from './postgres-store.js';
import { SharedReaderSlots } from './reader-slots.js';
import type { SharedLimitStore } from './shared-store.js';

/**
 * The limits per reader (questions and searches a minute, questions running at once), counted where every instance
 * sees them. Undefined parts mean this instance counts alone: @fastify/rate-limit's in-process store, RunningAnswers.
 */
export type Limits = {
  where: 'postgres' | 'process';
  /** @fastify/rate-limit's `store` option. */
  perMinuteStore: FastifyRateLimitStoreCtor | undefined;
  readerSlots: SharedReaderSlots | undefined;
  /** Gives back the slots still held and disconnects; never throws. */
  close(): Promise<void>;
};

export type LimitsOptions = {
  /** The PostgreSQL database the instances share takes the limits when set (an embedded PGlite serves one instance). */
  postgres?: Database | undefined;
  log: FastifyBaseLogger;
  /** How long a request waits on the database for a limit before this instance decides alone. */
  timeoutMs?: number | undefined;
  /** How long a running question's slot lasts unless refreshed. */
  slotLifetimeMs?: number | undefined;
};

/** Opens the limits on the shared PostgreSQL database, else in this process. */
export async function openLimits(options: LimitsOptions): Promise<Limits> {
  if (options.postgres) {
    const guard = new OutageGuard({ backend: 'PostgreSQL', log: options.log, timeoutMs: options.timeoutMs });
    return sharedLimits('postgres', postgresLimitStore(options.postgres), guard, options);
  }
  return { where: 'process', perMinuteStore: undefined, readerSlots: undefined, close: async () => {} };
}

function sharedLimits(
  where: Limits['where'],
  shared: SharedLimitStore,
  guard: OutageGuard,
  options: LimitsOptions,
): Limits {
  const readerSlots = new SharedReaderSlots(shared, guard, options.slotLifetimeMs);
  return {
    where,
    perMinuteStore: sharedMinuteStore(shared, guard),
    readerSlots,
    async close() {
      await readerSlots.close();
      await shared.close().catch((error: unknown) => guard.failed(error));
    },
  };
}
