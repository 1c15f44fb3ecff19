import type { FastifyBaseLogger } from 'fastify';
import { describeError } from '../store/describe-error.js';

/** A limit is decided within this, or this instance decides it alone: a reader never waits on a sick database. */
export const defaultSharedLimitTimeoutMs = 300;

/** While the shared store stays away, the warning is repeated this often (with how many requests it affected). */
const warnEveryMs = 60_000;

export type OutageGuardOptions = {
  /** Names the shared store in the log: "PostgreSQL". */
  backend: string;
  log: FastifyBaseLogger;
  timeoutMs?: number | undefined;
};

/**
 * Asks the shared store of limits, bounded in time. When it fails or is slow, the request gets this instance's own
 * answer instead: a database hiccup loosens a limit to one instance's count for a moment, and never fails a
 * request. A warning says so, one a minute at most however many requests it touches, and a line says when the store
 * answers again.
 */
export class OutageGuard {
  private readonly timeoutMs: number;
  /** A warning went out and no line has said since that the store is back. */
  private warned = false;
  private lastWarnedAt = Number.NEGATIVE_INFINITY;
  private failuresSinceWarning = 0;

  constructor(private readonly options: OutageGuardOptions) {
    this.timeoutMs = options.timeoutMs ?? defaultSharedLimitTimeoutMs;
  }

  /**
   * The shared store's answer, or `fallback()`'s when it fails or does not answer in time. `late` gets an answer that
   * came after the fallback was taken (e.g. to give back a slot nobody will use).
   */
  async run<T>(shared: () => Promise<T>, fallback: () => T, late?: (value: T) => void): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    // Thrown at once or later, a failure of the store is a failure like any other.
    const asked = new Promise<T>((resolve) => resolve(shared()));
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      const value = await Promise.race([asked, deadline]);
      this.recovered();
      return value;
    } catch (error) {
      if (timedOut && late) asked.then(late, () => {});
      else asked.catch(() => {});
      this.failed(error);
      return fallback();
    } finally {
      clearTimeout(timer);
    }
  }

  /** For failures seen outside a request, e.g. the store failing to close. */
  failed(error: unknown) {
    this.failuresSinceWarning += 1;
    const now = Date.now();
    if (now - this.lastWarnedAt < warnEveryMs) return;
    this.options.log.warn(
      { backend: this.options.backend, reason: describeError(error), failures: this.failuresSinceWarning },
      `the limits shared across instances are unavailable (${this.options.backend}); this instance counts alone meanwhile`,
    );
    this.lastWarnedAt = now;
    this.failuresSinceWarning = 0;
    this.warned = true;
  }

  private recovered() {
    if (!this.warned) return;
    // Both lines stay at one a minute at most even when the store comes and goes: a flapping store floods no log.
    this.warned = false;
    this.options.log.info({ backend: this.options.backend }, 'the limits shared across instances are back');
  }
}
