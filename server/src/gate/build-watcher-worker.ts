/**
 * Run in a worker thread by build-watcher.ts: watches a site build and the folder holding it, and posts `changed`
 * whenever either moves. Node's recursive watch on Linux walks the whole build and watches every file and folder in it,
 * synchronously: a second's block at a hundred times the handbook's pages, which here costs the server nothing.
 */
import { existsSync, type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { fingerprintOf } from './built-site.js';
import type { WatcherCommand, WatcherMessage } from './site-messages.js';

const { siteDirectory } = workerData as { siteDirectory: string };
const post = (message: WatcherMessage) => parentPort?.postMessage(message);
/**
 * At most one message per this long, the first at once and the last after the events stop: a build being written is
 * thousands of events a second, and a message each, taken in by the server's thread in batches, held it for up to
 * 100 ms (measured at a hundred times the handbook's pages). The follower waits for the build to be quiet anyway.
 */
const coalesceMs = 100;
let lastPosted = 0;
let trailing: NodeJS.Timeout | undefined;
function changed() {
  if (trailing) return;
  const wait = lastPosted + coalesceMs - Date.now();
  const postNow = () => {
    trailing = undefined;
    lastPosted = Date.now();
    post('changed');
  };
  if (wait <= 0) postNow();
  else trailing = setTimeout(postNow, wait);
}

let buildWatcher: FSWatcher | undefined;
function watchBuild() {
  if (buildWatcher || !existsSync(siteDirectory)) return;
  try {
    buildWatcher = watch(siteDirectory, { recursive: true }, changed);
    buildWatcher.on('error', () => {
      buildWatcher?.close();
      buildWatcher = undefined;
      changed();
    });
  } catch {
    buildWatcher = undefined;
  }
}

// Docusaurus replaces the build folder: its parent sees the name come back, and the build's watch is renewed then.
try {
  const parentWatcher = watch(path.dirname(siteDirectory), (_event, name) => {
    if (name !== path.basename(siteDirectory)) return;
    buildWatcher?.close();
    buildWatcher = undefined;
    changed();
  });
  // Without a listener a watcher's error (its folder removed, say) would end the thread; the build's watch goes on.
  parentWatcher.on('error', () => parentWatcher.close());
} catch {
  // A folder that cannot be watched: the build's own watch still sees its files change.
}
watchBuild();
let fingerprint: string | undefined;
try {
  fingerprint = fingerprintOf(siteDirectory);
} catch {
  // No build right now: the follower reads it again, and is told why it cannot.
}
post({ kind: 'watching', fingerprint });

parentPort?.on('message', (command: WatcherCommand) => {
  if (command === 'rewatch') watchBuild();
});
