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

/** Its watches and their events are few: a small heap is plenty. */
const watcherHeapMb = 64;

/**
 * Watches a site build from a worker thread (build-watcher-worker.ts), so that watching thousands of files never holds
 * up a request; `onChange` is called on this thread for every change it sees.
 */
export function watchBuildInWorker(siteDirectory: string, seen: () => string, onChange: () => void): BuildWatcher {
  let closed = false;
  let worker: Worker | undefined;
  let watching: Promise<void> = Promise.resolve();
  const start = () => {
    const started = startWorker(
      new URL('./build-watcher-worker.js', import.meta.url),
      { siteDirectory },
      watcherHeapMb,
    );
    worker = started;
    watching = new Promise((resolve) => {
      started.on('message', (message: WatcherMessage) => {
        if (message === 'changed') onChange();
        else {
          if (message.fingerprint !== seen()) onChange();
          resolve();
        }
      });
      // A watcher that died sees nothing more: the build is read again, and the next change starts a new one.
      started.on('error', () => undefined);
      started.on('exit', () => {
        resolve();
        if (worker === started) worker = undefined;
        if (!closed) onChange();
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
      else start();
    },
    async close() {
      closed = true;
      await worker?.terminate();
    },
  };
}
