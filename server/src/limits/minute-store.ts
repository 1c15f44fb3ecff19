/// <reference path="./rate-limit-stores.d.ts" />
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import type { OutageGuard } from './outage-guard.js';
import type { SharedLimitStore } from './shared-store.js';

/**
 * A store for @fastify/rate-limit (its `store` option) that counts requests a minute in the shared store, so every
 * instance refuses the same reader at the same count. Every request is counted in this instance too, with the
 * plugin's own in-process store: when the shared store fails or is slow, that count decides, as it would with one
 * instance.
 */
export function sharedMinuteStore(shared: SharedLimitStore, guard: OutageGuard): FastifyRateLimitStoreCtor {
  return class SharedMinuteStore implements FastifyRateLimitStore {
    private readonly here = new LocalStore(false, false);

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ) {
      this.here.incr(
        key,
        (_error, countedHere) => {
          void guard
            .run(
              () => shared.count(key, timeWindow, max),
              () => countedHere,
            )
            .then((counted) => callback(null, counted));
        },
        timeWindow,
        max,
      );
    }

    /** Keys already name what they count (`ask:user:…`), so routes share this store as it is. */
    child() {
      return this;
    }
  };
}
