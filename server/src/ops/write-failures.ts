import type { FastifyInstance } from 'fastify';
import { isOutOfSpace } from '../store/unavailable.js';

/** A write refused for lack of space keeps the instance not ready for this long after the last one. */
export const writeFailureWindowMs = 60_000;

/**
 * Watches the requests' failures for writes refused for lack of space: reading goes on (the database answers its
 * readiness query) while every sign-in, question and rating fails, which a balancer should know. `check()` says so
 * for `writeFailureWindowMs` after the last one; a request that writes again then finds out whether space is back.
 */
export function watchWriteFailures(app: FastifyInstance, now: () => number = Date.now) {
  let lastFailureAt: number | undefined;
  app.addHook('onError', async function noteOutOfSpace(_request, _reply, error) {
    if (isOutOfSpace(error)) lastFailureAt = now();
  });
  return {
    check(): 'ok' | string {
      if (lastFailureAt === undefined) return 'ok';
      const secondsAgo = Math.round((now() - lastFailureAt) / 1000);
      if (now() - lastFailureAt >= writeFailureWindowMs) return 'ok';
      return `writes failing: no space left (${secondsAgo} s ago)`;
    },
  };
}
