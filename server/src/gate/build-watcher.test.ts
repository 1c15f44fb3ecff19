import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuildWatcher, watchBuildInWorker } from './build-watcher.js';

const dyingWorker = new URL('../../test-support/dying-watcher-worker.js', import.meta.url);
const watchers: BuildWatcher[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const watcher of watchers.splice(0)) await watcher.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('watchBuildInWorker', () => {
  it('starts a thread that dies at every start again after waits that double, reading the build at each restart', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'build-watcher-'));
    directories.push(directory);
    const waits: number[] = [];
    let changes = 0;
    const watcher = watchBuildInWorker(
      directory,
      () => 'seen',
      () => (changes += 1),
      { workerModule: dyingWorker, firstRestartMs: 100, onStopped: (wait) => waits.push(wait) },
    );
    watchers.push(watcher);
    const started = performance.now();
    while (waits.length < 4 && performance.now() - started < 25_000) await sleep(20);
    // Without the waits a thread that cannot start is started again at once, a core spent walking the build.
    expect(waits.slice(0, 4)).toEqual([100, 200, 400, 800]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100 + 200 + 400);
    // The build is read again at each restart: a thread that never watches must not leave a rebuild unserved.
    expect(changes).toBeGreaterThanOrEqual(3);
    // Asked to watch again meanwhile (the follower does on every change), it still waits its turn.
    const stops = waits.length;
    watcher.rewatch();
    await sleep(300);
    expect(waits.length).toBe(stops);
  });

  it('tells a burst of changes in a few messages, the last one after the burst', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'build-watcher-'));
    directories.push(directory);
    const told: number[] = [];
    const watcher = watchBuildInWorker(
      directory,
      () => 'seen',
      () => told.push(performance.now()),
    );
    watchers.push(watcher);
    await watcher.watching;
    told.length = 0;
    // A build being written: a thousand files, each an event or more.
    const firstWritten = performance.now();
    for (let at = 0; at < 1000; at += 1) writeFileSync(path.join(directory, `page-${at}.html`), `page ${at}`);
    const lastWritten = performance.now();
    // The last write is still told, after it (the thread takes in its batch of events first).
    while (!((told.at(-1) ?? 0) > lastWritten) && performance.now() - lastWritten < 5000) await sleep(20);
    expect(told.at(-1)).toBeGreaterThan(lastWritten);
    await sleep(300);
    // One a tenth of a second at most, however many events (a message each before: over a thousand). Counted over
    // the time they can have been sent in, from the first write to the last arrival: a busy test thread takes them in
    // bunched, so the gaps between arrivals say nothing.
    const span = (told.at(-1) ?? 0) - firstWritten;
    expect(told.length).toBeLessThanOrEqual(Math.floor(span / 100) + 2);
  });

  it('starts nothing more once closed during a wait', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'build-watcher-'));
    directories.push(directory);
    const waits: number[] = [];
    let closing: Promise<void> | undefined;
    const watcher = watchBuildInWorker(
      directory,
      () => 'seen',
      () => undefined,
      {
        workerModule: dyingWorker,
        firstRestartMs: 200,
        // Closed as its first stop is told, while the restart waits.
        onStopped: (wait) => {
          waits.push(wait);
          closing ??= watcher.close();
        },
      },
    );
    while (!closing) await sleep(20);
    await closing;
    const stopsWhenClosed = waits.length;
    await sleep(800);
    expect(stopsWhenClosed).toBe(1);
    expect(waits.length).toBe(stopsWhenClosed);
  });
});
