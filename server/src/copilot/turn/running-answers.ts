import { ApiError } from '@acme/contract';

type Running = { reader: string; threadId: string | undefined; stop: AbortController };

/**
 * The answers this instance is writing: at most `perReader` at once for one reader, one at a time in a thread, and
 * each can be stopped by its reader. Kept in process: a Stop sent to another instance of several finds nothing
 * there, and that answer completes.
 */
export class RunningAnswers {
  private readonly running = new Set<Running>();

  constructor(private readonly perReader: number) {}

  /** Takes a slot, or refuses with 429 (too many for the reader) or 409 (the thread is busy). */
  begin(reader: string, threadId?: string): { signal: AbortSignal; cancel: () => void; end: () => void } {
    const mine = [...this.running].filter((entry) => entry.reader === reader);
    if (threadId && mine.some((entry) => entry.threadId === threadId)) throw new ApiError('conflict:answer_running');
    if (mine.length >= this.perReader) {
      throw new ApiError('rate_limited:concurrent', `At most ${this.perReader} questions at once.`, 1);
    }
    const entry: Running = { reader, threadId, stop: new AbortController() };
    this.running.add(entry);
    return {
      signal: entry.stop.signal,
      cancel: () => entry.stop.abort(new Error('The caller went away')),
      end: () => this.running.delete(entry),
    };
  }

  /** Stops the reader's answer in a thread; false when none is running here. */
  stop(reader: string, threadId: string): boolean {
    const entry = [...this.running].find((running) => running.reader === reader && running.threadId === threadId);
    entry?.stop.abort(new StoppedByReader());
    return entry !== undefined;
  }

  /** Ends every answer, e.g. when the server shuts down. */
  abortAll(reason: Error) {
    for (const entry of this.running) entry.stop.abort(reason);
  }
}

/** The reason an answer's signal carries when its reader pressed Stop. */
export class StoppedByReader extends Error {
  constructor() {
    super('Stopped by the reader');
    this.name = 'StoppedByReader';
  }
}
