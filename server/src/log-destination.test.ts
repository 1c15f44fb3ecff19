import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLogDestination } from './log-destination.js';

/** A named pipe whose reader is open but reads only when the test says so: a paused log shipper. */
let directory: string;
let readEnd: number;
let writeEnd: number;

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'log-sink-'));
  const fifo = path.join(directory, 'sink');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  writeEnd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
});

afterEach(() => {
  closeSync(readEnd);
  closeSync(writeEnd);
  rmSync(directory, { recursive: true, force: true });
});

const line = `${JSON.stringify({ level: 20, msg: 'x'.repeat(200) })}\n`;

/** Reads what the pipe holds now; a read that would wait ends it. */
function readAvailable() {
  const buffer = Buffer.alloc(1 << 16);
  let total = 0;
  for (;;) {
    try {
      const count = readSync(readEnd, buffer);
      if (count === 0) return total;
      total += count;
    } catch {
      return total;
    }
  }
}

it('keepsAtMostItsBoundOfUnreadLines, drops the rest and says how many once the sink reads again', async () => {
  const destination = createLogDestination(writeEnd);
  const reported = new Promise<number>((resolve) => destination.reportDroppedLines(resolve));
  const lines = 40_000; // about 9 MB, twice the bound
  for (let index = 0; index < lines; index += 1) destination.stream.write(line);

  let delivered = 0;
  let dropped: number | undefined;
  void reported.then((count) => {
    dropped = count;
  });
  // Until the warning came and every line kept has arrived.
  while (dropped === undefined || delivered < (lines - dropped) * line.length) {
    delivered += readAvailable();
    // A real wait: the destination writes on libuv's threads and retries a full pipe on its own timer, out of fake
    // time's reach.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(dropped).toBeGreaterThan(0);
  expect(delivered).toBeLessThanOrEqual(4 * 1024 * 1024 + (1 << 16));
  expect(delivered).toBe((lines - dropped) * line.length);
  destination.stream.destroy();
});

it('givesUpTheFinalFlushWhenTheSinkNeverReads: the exit flush returns instead of retrying for ever', () => {
  const destination = createLogDestination(writeEnd);
  for (let index = 0; index < 2_000; index += 1) destination.stream.write(line);
  destination.stream.flushSync();
  // Returning at all is the point; some lines stayed unwritten, and the pipe is full.
  expect(readAvailable()).toBeGreaterThan(0);
  destination.stream.destroy();
});

/** Resolves once `condition` holds, writing a line to `destination` every 20 ms meanwhile. */
async function writeUntil(destination: ReturnType<typeof createLogDestination>, condition: () => boolean) {
  while (!condition()) {
    destination.stream.write(line);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('dropsLinesWhileItsSinkFails, says so once, and counts them once the sink takes lines again', async () => {
  const notices = path.join(directory, 'notices');
  const noticeFd = openSync(notices, 'w');
  // A pipe whose reader left: every write fails with EPIPE until a reader comes back.
  closeSync(readEnd);
  const destination = createLogDestination(writeEnd, noticeFd);
  let dropped: number | undefined;
  destination.reportDroppedLines((count) => {
    dropped = count;
  });
  await writeUntil(destination, () => readFileSync(notices, 'utf8') !== '');

  readEnd = openSync(path.join(directory, 'sink'), constants.O_RDONLY | constants.O_NONBLOCK);
  await writeUntil(destination, () => dropped !== undefined);
  expect(dropped).toBeGreaterThan(0);
  expect(readAvailable()).toBeGreaterThan(0);
  expect(readFileSync(notices, 'utf8')).toBe(
    'The log output failed (EPIPE); log lines are dropped until it takes them again.\n',
  );
  destination.stream.destroy();
  closeSync(noticeFd);
});

it('givesUpTheFinalFlushOnAFailingSink: a full disk (ENOSPC) ends it at once instead of retrying for ever', () => {
  const full = openSync('/dev/full', 'w');
  const destination = createLogDestination(full, full);
  for (let index = 0; index < 2_000; index += 1) destination.stream.write(line);
  // Returning at all is the point: sonic-boom slept 100 ms and wrote again, for ever.
  destination.stream.flushSync();
  destination.stream.flushSync();
  destination.stream.destroy();
  closeSync(full);
});
