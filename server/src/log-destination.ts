import { EventEmitter } from 'node:events';
import { write, writeSync } from 'node:fs';

/** Log lines waiting for a sink that does not read are kept up to this many bytes; later lines are dropped. */
const maxUnwrittenBytes = 4 * 1024 * 1024;
/** At exit, how long the last lines may wait for a sink that does not read before they are given up. */
const finalFlushMs = 1000;
/** One write at most: Docker's log copier reads 16 KB at a time. */
const maxWriteBytes = 16 * 1024;
/** A full sink (EAGAIN) is tried again after this long. */
const fullRetryMs = 100;
/** After a write fails for good (ENOSPC, EIO, a closed pipe), lines are dropped for this long before trying again. */
const failedPauseMs = 1000;

/** Lines written together; `rest` is what is left to write once writing it has begun. */
type Chunk = { text: string; size: number; lines: number; rest?: Buffer };

const restOf = (chunk: Chunk) => {
  chunk.rest ??= Buffer.from(chunk.text);
  return chunk.rest;
};

const pauseArray = new Int32Array(new SharedArrayBuffer(4));
const isFull = (error: NodeJS.ErrnoException) => error.code === 'EAGAIN' || error.code === 'EBUSY';

/**
 * A log sink that never holds the server: lines are written asynchronously, at most `maxUnwrittenBytes` wait for a
 * sink that does not read (a paused supervisor, a stuck log shipper), and a sink whose writes fail (a full disk,
 * /dev/full, an I/O error) has its lines dropped. Dropped lines are counted and reported once the sink takes writes
 * again. The flush at exit gives up after `finalFlushMs` in all. It replaces pino's sonic-boom, which retries a failed
 * write every 100 ms for ever, on the event loop's thread at exit, so neither signals nor the exit bound could act.
 */
class BoundedLogOutput extends EventEmitter {
  private readonly queue: Chunk[] = [];
  private unwrittenBytes = 0;
  /** The chunk being written: `inFlight` while the thread pool writes it, else waiting for `retry`. */
  private current: Chunk | undefined;
  private inFlight = false;
  private retry: NodeJS.Timeout | undefined;
  private pausedUntil = 0;
  private destroyed = false;
  private failureNoticed = false;
  dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly noticeFd: number,
  ) {
    super();
  }

  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.destroyed || performance.now() < this.pausedUntil || this.unwrittenBytes + bytes > maxUnwrittenBytes) {
      this.dropped += 1;
      return true;
    }
    this.unwrittenBytes += bytes;
    const last = this.queue.at(-1);
    if (last && last.size + bytes <= maxWriteBytes) {
      last.text += line;
      last.size += bytes;
      last.lines += 1;
    } else this.queue.push({ text: line, size: bytes, lines: 1 });
    this.writeNext();
    // Never asks a pipe into it (pretty lines) to wait: past the bound, lines are dropped instead.
    return true;
  }

  /** The flush at exit (and after a fatal line): synchronous, given up `finalFlushMs` after it starts. */
  flushSync() {
    if (this.destroyed) return;
    const giveUpAt = performance.now() + finalFlushMs;
    clearTimeout(this.retry);
    // A chunk the thread pool is writing is left to it; one waiting to be retried goes first.
    const chunks = this.current && !this.inFlight ? [this.current, ...this.queue] : [...this.queue];
    if (!this.inFlight) this.current = undefined;
    this.queue.length = 0;
    while (chunks.length > 0) {
      const chunk = chunks[0] as Chunk;
      try {
        const written = writeSync(this.fd, restOf(chunk));
        this.unwrittenBytes -= written;
        chunk.rest = restOf(chunk).subarray(written);
        if (chunk.rest.length === 0) chunks.shift();
      } catch (error) {
        if (!isFull(error as NodeJS.ErrnoException) || performance.now() >= giveUpAt) {
          this.giveUp(chunks, error as NodeJS.ErrnoException);
          return;
        }
        Atomics.wait(pauseArray, 0, 0, 10);
      }
    }
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.retry);
    this.queue.length = 0;
  }

  /** A pipe into this output (pretty lines) that ends leaves standard output open. */
  end() {}

  private writeNext() {
    if (this.current || this.destroyed) return;
    this.current = this.queue.shift();
    if (this.current) this.writeCurrent();
    else this.emit('drain');
  }

  private readonly writeCurrent = () => {
    const chunk = this.current;
    if (!chunk) return;
    this.inFlight = true;
    write(this.fd, restOf(chunk), (error, written) => {
      this.inFlight = false;
      if (this.current !== chunk) return;
      if (error && isFull(error)) {
        this.retry = setTimeout(this.writeCurrent, fullRetryMs);
        return;
      }
      if (error) {
        this.current = undefined;
        this.giveUp([chunk, ...this.queue.splice(0)], error);
        return;
      }
      this.unwrittenBytes -= written;
      chunk.rest = restOf(chunk).subarray(written);
      if (chunk.rest.length > 0) {
        this.writeCurrent();
        return;
      }
      this.current = undefined;
      this.writeNext();
    });
  };

  /** Drops the lines not yet written; a sink that failed for another reason than being full is left alone a while. */
  private giveUp(chunks: Chunk[], error: NodeJS.ErrnoException) {
    for (const chunk of chunks) {
      this.dropped += chunk.lines;
      this.unwrittenBytes -= chunk.rest?.length ?? chunk.size;
    }
    if (isFull(error)) return;
    this.pausedUntil = performance.now() + failedPauseMs;
    if (this.failureNoticed) return;
    this.failureNoticed = true;
    try {
      // Once, straight to the descriptor: it may be the same failing sink, and then this fails at once too.
      writeSync(
        this.noticeFd,
        `The log output failed (${error.code ?? error.message}); log lines are dropped until it takes them again.\n`,
      );
    } catch {
      // Nowhere left to say it.
    }
  }
}

/** Every output still in use, flushed when the process exits (`process.exit` included). */
const openOutputs = new Set<WeakRef<BoundedLogOutput>>();
const forgotten = new FinalizationRegistry<WeakRef<BoundedLogOutput>>((reference) => openOutputs.delete(reference));
process.on('exit', () => {
  for (const reference of openOutputs) reference.deref()?.flushSync();
});

/**
 * Standard output (or `fd`) as the log's destination, for pino: see `BoundedLogOutput`. The one notice that the
 * output failed goes to `noticeFd`.
 */
export function createLogDestination(fd = 1, noticeFd = 2) {
  // Standard output and error as pipes become non-blocking once Node opens them (libuv does so): a full pipe then
  // answers EAGAIN, which the bounds handle, instead of blocking a write, which nothing could bound.
  if (fd === 1) void process.stdout;
  if (noticeFd === 2) void process.stderr;
  const stream = new BoundedLogOutput(fd, noticeFd);
  const reference = new WeakRef(stream);
  openOutputs.add(reference);
  forgotten.register(stream, reference);
  let onDropped: ((count: number) => void) | undefined;
  stream.on('drain', () => {
    if (stream.dropped === 0 || !onDropped) return;
    const count = stream.dropped;
    stream.dropped = 0;
    onDropped(count);
  });
  return {
    stream,
    /** Called once the sink takes lines again after lines were dropped, with how many. */
    reportDroppedLines(report: (count: number) => void) {
      onDropped = report;
    },
  };
}

export type LogDestination = ReturnType<typeof createLogDestination>;
