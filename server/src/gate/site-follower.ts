import { existsSync, type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSearchEngineInBackground } from '../search/engine.js';
import type { HoldLimits } from './built-site.js';
import type { BuiltSiteReply, BuiltSiteRequest } from './built-site-worker.js';
import { type SiteSnapshot, siteSnapshot } from './site-snapshot.js';

export type SiteFollower = {
  /** The newest complete build. Never waits: a rebuild is read in the background and swapped in whole. */
  current(): SiteSnapshot;
  /** Resolves once no rebuild is being read or waited for (tests). */
  settled(): Promise<void>;
  close(): void;
};

export type SiteFollowerOptions = {
  strictTransport: boolean;
  /** A rebuild is read once the build has been quiet this long. Default 300 ms. */
  quietMs?: number;
  limits?: HoldLimits;
  onSwapped?: (snapshot: SiteSnapshot) => void;
  onKeptPrevious: (reason: string) => void;
};

/** The whole of a docs site's text fits; images or downloads past these are streamed from disk. */
const defaultHoldLimits: HoldLimits = { maxFileBytes: 2 * 1024 * 1024, maxTotalBytes: 128 * 1024 * 1024 };

const compiled = !import.meta.url.endsWith('.ts');
const workerScript = new URL(compiled ? './built-site-worker.js' : './built-site-worker.ts', import.meta.url);
/** From the sources (tests, `npm run dev`), the worker registers tsx first: a worker's execArgv cannot load it. */
const workerSource = compiled
  ? fileURLToPath(workerScript)
  : `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerScript.href)}); });`;

/** Reads a build in a worker thread: the HTML parsing and hashing never hold up a request, and its memory goes after. */
function readInWorker(request: BuiltSiteRequest): Promise<BuiltSiteReply> {
  return new Promise((resolve) => {
    const worker = new Worker(workerSource, {
      eval: !compiled,
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    worker.once('message', (reply: BuiltSiteReply) => resolve(reply));
    worker.once('error', (error) => resolve({ kind: 'failed', reason: error.message }));
    worker.once('exit', (code) => resolve({ kind: 'failed', reason: `the build reader stopped (exit code ${code})` }));
  });
}

async function load(
  siteDirectory: string,
  options: SiteFollowerOptions,
  previous?: SiteSnapshot,
): Promise<SiteSnapshot | string> {
  const reply = await readInWorker({ siteDirectory, limits: options.limits ?? defaultHoldLimits });
  if (reply.kind === 'changed') return 'the build changed while it was read';
  if (reply.kind === 'failed') return reply.reason;
  try {
    const search = await buildSearchEngineInBackground(reply.site.sections);
    return siteSnapshot(reply.site, search, { strictTransport: options.strictTransport, previous });
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Serves the built site as one snapshot and follows rebuilds: file system events (debounced) start a background read
 * of the new build; it is swapped in whole once complete (its 404 page written, its files unchanged while read), and
 * the previous snapshot goes on serving meanwhile. Docusaurus replaces the build directory, so its parent is watched
 * too and the watch on the build is renewed when it reappears.
 */
export async function followSite(siteDirectory: string, options: SiteFollowerOptions): Promise<SiteFollower> {
  const first = await load(siteDirectory, options);
  if (typeof first === 'string')
    throw new Error(`${siteDirectory} cannot be served: ${first}. Build the site first (npm run build).`);
  let snapshot = first;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let closed = false;
  let buildWatcher: FSWatcher | undefined;

  async function refresh() {
    do {
      readAgain = false;
      const next = await load(siteDirectory, options, snapshot);
      if (closed) return;
      if (typeof next === 'string') options.onKeptPrevious(next);
      else if (next.fingerprint !== snapshot.fingerprint) {
        snapshot = next;
        options.onSwapped?.(next);
      }
    } while (readAgain && !closed);
  }
  function changed() {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      watchBuild();
      if (reading) readAgain = true;
      else reading = refresh().finally(() => (reading = undefined));
    }, options.quietMs ?? 300);
  }
  function watchBuild() {
    if (buildWatcher || closed || !existsSync(siteDirectory)) return;
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
  const parentWatcher = watch(path.dirname(siteDirectory), (_event, name) => {
    if (name === path.basename(siteDirectory)) {
      buildWatcher?.close();
      buildWatcher = undefined;
      changed();
    }
  });
  // Without a listener a watcher's error (its directory removed, say) would end the process; the build's own
  // watcher goes on regardless.
  parentWatcher.on('error', () => parentWatcher.close());
  watchBuild();

  return {
    current: () => snapshot,
    async settled() {
      while (timer || reading) await (reading ?? new Promise((resolve) => setTimeout(resolve, 20)));
    },
    close() {
      closed = true;
      clearTimeout(timer);
      buildWatcher?.close();
      parentWatcher.close();
    },
  };
}
