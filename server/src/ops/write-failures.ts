import type { FastifyInstance } from 'fastify';

/** A write refused for lack of space keeps the instance not ready for this long after the last one. */
export const writeFailureWindowMs = 60_000;

/** PostgreSQL's disk_full, and the operating system's own words for it (a full disk, a quota). */
const outOfSpaceCodes = new Set(['53100', 'ENOSPC', 'EDQUOT']);

/** True when the error, or one it wraps (Drizzle wraps the driver's), says the disk is full. */
export function isOutOfSpace(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 10 && current && typeof current === 'object'; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && outOfSpaceCodes.has(code)) return true;
    current = cause;
  }
  return false;
}

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
