import { ApiError, errorDetails } from '@acme/contract';
import { ReaderCounts } from '../../limits/reader-counts.js';
import type { ReaderSlot, SharedReaderSlots } from '../../limits/reader-slots.js';

type Running = { reader: string; threadId: string | undefined; stop: AbortController };

/** How long stopped answers get to store what they wrote before the server goes on shutting down. */
const storeAfterStopMs = 2000;

/**
 * The answers this instance is writing: at most `perReader` at once for one reader (on all instances together when
 * `shared` counts them), one at a time in a thread, and each can be stopped by its reader. The thread check and Stop
 * are kept in process (only the per-reader count is worth a round trip to the database on every question): a
 * Stop sent to another instance finds nothing there, and that answer completes; a thread's next question sent to
 * another instance while one is being answered is not refused with 409 there.
 */
export class RunningAnswers {
  private readonly running = new Set<Running>();
  private readonly waitingForNone: Array<() => void> = [];
  /** Per reader, how many question bodies this instance is reading now. */
  private readonly arriving = new ReaderCounts();

  constructor(
    private readonly perReader: number,
    /** The reader's running questions on every instance; without it, this instance's count alone limits them. */
    private readonly shared?: SharedReaderSlots | undefined,
  ) {}

  /**
   * Takes a slot, or refuses with 429 (too many for the reader) or 409 (the thread is busy). `end` must be called
   * however the answer ends: it gives the slot back.
   */
  async begin(
    reader: string,
    threadId?: string,
  ): Promise<{ signal: AbortSignal; cancel: () => void; end: () => Promise<void> }> {
    const mine = [...this.running].filter((entry) => entry.reader === reader);
    if (threadId && mine.some((entry) => entry.threadId === threadId)) throw new ApiError('conflict:answer_running');
    if (mine.length >= this.perReader) throw this.tooMany();
    // Counted here before the shared store is asked: this instance's own count holds even while the store is away.
    const entry: Running = { reader, threadId, stop: new AbortController() };
    this.running.add(entry);
    const endHere = () => {
      this.running.delete(entry);
      if (this.running.size === 0) for (const resolve of this.waitingForNone.splice(0)) resolve();
    };
    let slot: ReaderSlot | undefined;
    if (this.shared) {
      slot = await this.shared.take(reader, this.perReader);
      if (!slot) {
        endHere();
        throw this.tooMany();
      }
    }
    return {
      signal: entry.stop.signal,
      cancel: () => entry.stop.abort(new Error('The caller went away')),
      // Resolves once the shared store has the slot back (bounded by its outage guard), so a reader who asks again
      // the moment an answer ends is never refused for the question that just ended, on any instance.
      end: async () => {
        try {
          await slot?.release();
        } finally {
          endHere();
        }
      },
    };
  }

  /**
   * A question request of the reader whose body is about to be read (up to 32 MB: four screenshots), or a 429 when the
   * reader already has one more than `perReader` questions being read or answered here: one reader never holds more
   * than that many bodies in this instance's memory (ten at once held 420 MB). One more, so that a question `begin`
   * refuses is read and told exactly why (409 for a busy chat). The returned function gives the place back once the
   * body is read or the request ended; calling it again does nothing.
   */
  receive(reader: string): () => void {
    const mine = [...this.running].filter((entry) => entry.reader === reader).length;
    if (mine + this.arriving.count(reader) > this.perReader) throw this.tooMany();
    return this.arriving.add(reader);
  }

  private tooMany() {
    return new ApiError('rate_limited:concurrent', errorDetails.tooManyAtOnce(this.perReader), 1);
  }

  /** Stops the reader's answer in a thread; false when none is running here. */
  stop(reader: string, threadId: string): boolean {
    const entry = [...this.running].find((running) => running.reader === reader && running.threadId === threadId);
    entry?.stop.abort(new StoppedByReader());
    return entry !== undefined;
  }

  /** Ends every answer now. */
  abortAll(reason: Error) {
    for (const entry of this.running) entry.stop.abort(reason);
  }

  /**
   * For a shutdown: lets the running answers finish for up to `timeoutMs`, then stops the rest with `reason` (each
   * stores what it wrote) and waits briefly for them to end. Resolves with how many had to be stopped.
   */
  async drain(timeoutMs: number, reason: Error): Promise<number> {
    if (this.running.size === 0) return 0;
    const none = new Promise<void>((resolve) => this.waitingForNone.push(resolve));
    if (await within(none, timeoutMs)) return 0;
    const stopped = this.running.size;
    this.abortAll(reason);
    await within(none, storeAfterStopMs);
    return stopped;
  }
}

/** The reason an answer's signal carries when its reader pressed Stop. */
export class StoppedByReader extends Error {
  constructor() {
    super('Stopped by the reader');
    this.name = 'StoppedByReader';
  }
}

/**
 * The reason an answer's signal carries when the server stopped it at shutdown: stored with the answer and told to its
 * reader, who may ask again (another instance answers).
 */
export class StoppedByShutdown extends ApiError {
  constructor() {
    super('cancelled:ask');
  }
}

/** True when `promise` settled within `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
