/** The code of the error our socket guard (postgres-client.ts) destroys a silent connection with. */
export const silentConnectionCode = 'DATABASE_SILENT';
/** The code of the error a transaction that found no free connection in time fails with (postgres-client.ts). */
export const poolBusyCode = 'DATABASE_POOL_BUSY';

/** What the network, postgres.js and our own socket guard call a connection that failed or could not be made. */
const connectionFailureCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  silentConnectionCode,
  poolBusyCode,
]);

/**
 * PostgreSQL's error classes for a database that cannot serve right now, rather than a query that is wrong:
 * 08 connection exception, 53 insufficient resources (too many connections), 57 operator intervention (a statement
 * timeout, a shutdown, a server still starting), 58 system error.
 */
const unavailableStateClasses = new Set(['08', '53', '57', '58']);

/**
 * True when an error (or any error it wraps: Drizzle wraps the driver's) says the database is out of reach or cannot
 * serve for now: the reader should try again shortly, nothing is wrong with the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0 && seen.size < 10) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (connectionFailureCodes.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && unavailableStateClasses.has(code.slice(0, 2))) return true;
    }
    if (current instanceof AggregateError) pending.push(...current.errors);
    pending.push((current as { cause?: unknown }).cause);
  }
  return false;
}

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
 * `write`, tried again with growing pauses while the database is unavailable or its disk full (space may come back:
 * an operator frees it, a log rotates), until `giveUpAt`: a moment, or a function read before each attempt and during
 * each pause, for a deadline that may come closer (a shutdown). Any other failure is given back at once.
 */
export async function whileTheDatabaseIsAway<T>(
  write: () => Promise<T>,
  giveUpAt: number | (() => number),
  onRetry: (error: unknown, retryInMs: number) => void,
): Promise<T> {
  const deadline = typeof giveUpAt === 'number' ? () => giveUpAt : giveUpAt;
  for (let pauseMs = 250; ; pauseMs = Math.min(pauseMs * 2, 4000)) {
    try {
      return await write();
    } catch (error) {
      if (!(isDatabaseUnavailable(error) || isOutOfSpace(error)) || Date.now() + pauseMs > deadline()) throw error;
      onRetry(error, pauseMs);
      const until = Date.now() + pauseMs;
      while (Date.now() < until) {
        if (until > deadline()) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(until - Date.now(), pauseSliceMs)));
      }
    }
  }
}

/** How often a pause looks whether its deadline came closer. */
const pauseSliceMs = 250;
