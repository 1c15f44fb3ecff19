import type { Worker } from 'node:worker_threads';
import { startWorker } from '../search/worker-source.js';
import type { WatcherCommand, WatcherMessage } from './site-messages.js';

export type BuildWatcher = {
  /**
   * Resolves once the build and its folder are watched, after `onChange` if the build then differs from `seen` (a
   * change made before the watches were set).
   */
  watching: Promise<void>;
  /** Watches the build again if its watch ended (it was replaced); a watcher thread that died is started again. */
  rewatch(): void;
  close(): Promise<void>;
};

export type BuildWatcherOptions = {
  /** Told when the watcher thread stopped, and in how long it is started again. */
  onStopped?: (restartInMs: number) => void;
  /** The wait before the first restart; it doubles with each further stop in a row. Default 500 ms. */
  firstRestartMs?: number;
  /** The module run in the thread; build-watcher-worker.js unless given (tests of a thread that dies). */
  workerModule?: URL;
};

/** Its watches and their events are few: a small heap is plenty. */
const watcherHeapMb = 64;
/** The longest wait between restarts; a thread that lived this long before it stopped waits the first wait again. */
const longestRestartMs = 60_000;

/**
 * Watches a site build from a worker thread (build-watcher-worker.ts), so that watching thousands of files never holds
 * up a request; `onChange` is called on this thread for every change it sees. A thread that stops is started again
 * after a wait that doubles while it keeps stopping (out of memory, or out of watches), so that it never spins a core
 * walking the build; when it watches again the build's fingerprint tells whether something changed meanwhile.
 */
export function watchBuildInWorker(
  siteDirectory: string,
  seen: () => string,
  onChange: () => void,
  options: BuildWatcherOptions = {},
): BuildWatcher {
  let closed = false;
  let worker: Worker | undefined;
  let restart: NodeJS.Timeout | undefined;
  let stopsInARow = 0;
  let watching: Promise<void> = Promise.resolve();
  const start = () => {
    const startedAt = Date.now();
    const started = startWorker(
      options.workerModule ?? new URL('./build-watcher-worker.js', import.meta.url),
      { siteDirectory },
      watcherHeapMb,
    );
    worker = started;
    let watched = false;
    watching = new Promise((resolve) => {
      started.on('message', (message: WatcherMessage) => {
        if (message === 'changed') onChange();
        else {
          watched = true;
          if (message.fingerprint !== seen()) onChange();
          resolve();
        }
      });
      started.on('error', () => undefined);
      started.on('exit', () => {
        resolve();
        if (worker === started) worker = undefined;
        if (closed) return;
        stopsInARow = Date.now() - startedAt >= longestRestartMs ? 1 : stopsInARow + 1;
        const wait = Math.min(longestRestartMs, (options.firstRestartMs ?? 500) * 2 ** (stopsInARow - 1));
        options.onStopped?.(wait);
        restart = setTimeout(() => {
          restart = undefined;
          if (closed || worker) return;
          start();
          // A thread that died before it watched may never watch: the build is read again at each restart (at most
          // once a minute in the end), so that a rebuild is still served, late, rather than never.
          if (!watched) onChange();
        }, wait);
        restart.unref();
      });
    });
  };
  start();
  return {
    get watching() {
      return watching;
    },
    rewatch() {
      if (closed) return;
      if (worker) worker.postMessage('rewatch' satisfies WatcherCommand);
      // A thread that stopped is started by its timer, not sooner.
    },
    async close() {
      closed = true;
      clearTimeout(restart);
      await worker?.terminate();
    },
  };
}
