import pino from 'pino';

/** Log lines waiting for a sink that does not read are kept up to this many bytes; later lines are dropped. */
const maxUnwrittenBytes = 4 * 1024 * 1024;
/** At exit, how long the last lines may wait for a sink that does not read before they are given up. */
const finalFlushMs = 1000;

/**
 * Standard output as pino's asynchronous destination, bounded against a sink that stops reading (a paused
 * supervisor, a stuck log shipper): unwritten lines are capped at `maxUnwrittenBytes` (the rest are dropped and
 * counted), and the flush pino runs on exit gives up after `finalFlushMs`. Left to itself, sonic-boom retries a full
 * pipe for ever, and since that flush runs inside `process.exit`, the server's shutdown bound could never fire.
 */
export function createLogDestination(fd = 1) {
  // Standard output as a pipe becomes non-blocking once Node opens it (libuv does so): a full pipe then answers
  // EAGAIN, which the bounds below handle, instead of blocking a write, which nothing could bound.
  if (fd === 1) void process.stdout;
  let giveUpAt = Number.POSITIVE_INFINITY;
  let dropped = 0;
  let onDropped: ((count: number) => void) | undefined;
  const stream = pino.destination({
    dest: fd,
    sync: false,
    maxLength: maxUnwrittenBytes,
    retryEAGAIN: () => performance.now() < giveUpAt,
  });
  stream.on('drop', () => {
    dropped += 1;
  });
  stream.on('drain', () => {
    if (dropped === 0 || !onDropped) return;
    const count = dropped;
    dropped = 0;
    onDropped(count);
  });
  // A write given up at exit is reported here (pino's own listener passes on everything but a closed pipe).
  stream.on('error', () => {});
  const flushWithoutBound = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    giveUpAt = performance.now() + finalFlushMs;
    try {
      flushWithoutBound();
    } catch {
      // The sink did not read in time: what is still buffered is lost, the process must still end.
    } finally {
      giveUpAt = Number.POSITIVE_INFINITY;
    }
  };
  return {
    stream,
    /** Called once the sink reads again after lines were dropped, with how many. */
    reportDroppedLines(report: (count: number) => void) {
      onDropped = report;
    },
  };
}

export type LogDestination = ReturnType<typeof createLogDestination>;
