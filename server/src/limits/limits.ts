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
  where: 'redis' | 'postgres' | 'process';
  /** @fastify/rate-limit's `store` option. */
  perMinuteStore: FastifyRateLimitStoreCtor | undefined;
  readerSlots: SharedReaderSlots | undefined;
  /** Gives back the slots still held and disconnects; never throws. */
  close(): Promise<void>;
};

export type LimitsOptions = {
  /** Redis takes the limits when set. */
  redisUrl?: string | undefined;
  /** Otherwise the PostgreSQL database the instances share does (an embedded PGlite serves one instance only). */
  postgres?: Database | undefined;
  log: FastifyBaseLogger;
  /** Prefix of every Redis key. */
  keyPrefix?: string | undefined;
  /** How long a request waits on Redis or the database for a limit before this instance decides alone. */
  timeoutMs?: number | undefined;
  /** How long a running question's slot lasts unless refreshed. */
  slotLifetimeMs?: number | undefined;
};

export const defaultKeyPrefix = 'handbook:limits:';

/** Opens the limits on Redis, else PostgreSQL, else this process. Start-up goes on even when Redis does not answer. */
export async function openLimits(options: LimitsOptions): Promise<Limits> {
  if (options.redisUrl) {
    const guard = new OutageGuard({ backend: 'Redis', log: options.log, timeoutMs: options.timeoutMs });
    const { openRedisLimitStore } = await import('./redis-store.js');
    const shared = await openRedisLimitStore({
      url: options.redisUrl,
      keyPrefix: options.keyPrefix ?? defaultKeyPrefix,
      onError: (error) => guard.failed(error),
    });
    return sharedLimits('redis', shared, guard, options);
  }
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
