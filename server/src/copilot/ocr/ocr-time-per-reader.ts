import { LRUCache } from 'lru-cache';
import type { ImageTextProblem } from './image-size-guard.js';

const windowMs = 60_000;

/** One read's time at the engine: reserved in full when it starts, then what it really took once it ends. */
type Use = { endedAt: number; ms: number };

/**
 * The engine time each reader's screenshots took over the last minute, on this instance, in memory. A small image can
 * keep the engine busy for its whole timeout (a fine checkerboard does), so a reader past `perMinuteMs` gets no more
 * reads until older ones leave the sliding minute: one reader cannot hold the engine others wait for. A read is
 * charged its whole allowance when it starts (two engines cannot both spend the same rest) and what it took once it
 * ends. Holds at most `readers` readers, the least recently reading going first.
 */
export function createOcrTimePerReader(options: { perMinuteMs: number; readers?: number; now?: () => number }) {
  const { perMinuteMs, now = () => performance.now() } = options;
  const uses = new LRUCache<string, Use[]>({ max: options.readers ?? 10_000 });

  /** The reader's reads that ended within the minute, or run still; older ones are dropped. */
  function recentUses(reader: string): Use[] {
    const since = now() - windowMs;
    const recent = uses.get(reader)?.filter((use) => use.endedAt > since) ?? [];
    // A reader with nothing in the minute is not kept: looking one up costs no room.
    if (recent.length) uses.set(reader, recent);
    else uses.delete(reader);
    return recent;
  }

  const leftFor = (reader: string) => perMinuteMs - recentUses(reader).reduce((sum, use) => sum + use.ms, 0);

  return {
    /** The engine time the reader may still use this minute; none (zero or less) past their allowance. */
    leftFor,
    /**
     * Starts a read of at most `mostMs` for the reader: how long it may run (its share of what is left), and `ended`
     * to call once it stops, which charges the time it really took.
     */
    start(reader: string, mostMs: number): OcrTimeUse {
      const allowedMs = Math.max(0, Math.min(mostMs, leftFor(reader)));
      const startedAt = now();
      // Ending in the future keeps a running read in the minute however long it runs.
      const use: Use = { endedAt: Number.POSITIVE_INFINITY, ms: allowedMs };
      uses.set(reader, [...recentUses(reader), use]);
      return {
        allowedMs,
        ended() {
          use.endedAt = now();
          use.ms = use.endedAt - startedAt;
        },
      };
    },
  };
}

/** A read under way: how long it may run, and `ended` to call once it stops. */
export type OcrTimeUse = { allowedMs: number; ended(): void };

/** What a reader past their allowance is told of each further screenshot (as of one the engine could not read). */
export const timeSpentProblem = (perMinuteMs: number): ImageTextProblem => ({
  code: 'ocr_time_spent',
  message: `The reader's screenshots took the OCR engine ${perMinuteMs / 1000} s within a minute; this one is not read.`,
});
