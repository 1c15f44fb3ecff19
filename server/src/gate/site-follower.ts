import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocSection } from '../search/doc-page.js';
import { buildSearchEngineInBackground, type SearchEngine, searchEngineFromIndex } from '../search/engine.js';
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import { searchBeingBuilt, searchIsReady } from '../search/search-being-built.js';
import { serverDirectory } from '../server-directory.js';
import { watchBuildInWorker } from './build-watcher.js';
import type { HoldLimits } from './built-site.js';
import type { SectionsSource } from './site-messages.js';
import { type Reading, readInWorker } from './site-reader.js';
import { heldBytesOf, type SiteSnapshot, siteSnapshot } from './site-snapshot.js';

export type SiteFollower = {
  /** The newest complete build. Never waits: a rebuild is read in the background and swapped in whole. */
  current(): SiteSnapshot;
  /** Resolves once the first search index is in and no rebuild is being read or waited for (tests). */
  settled(): Promise<void>;
  /** Resolves once the first build's search index is in (or could not be built). */
  searchReady(): Promise<void>;
  close(): void;
};

export type SiteFollowerOptions = {
  strictTransport: boolean;
  /** PUBLIC_URL's origin, for the links of the Markdown pages (markdown-origin.ts). */
  publicOrigin?: string;
  /** A rebuild is read once the build has been quiet this long. Default 300 ms. */
  quietMs?: number;
  limits?: HoldLimits;
  onSwapped?: (snapshot: SiteSnapshot) => void;
  onKeptPrevious: (reason: string) => void;
  /** Where a build's search came from, once its files are read: the build's prepared search, or its pages parsed. */
  onSectionsSource?: (source: SectionsSource) => void;
  /** The first index is swapped in only once this settles: tests of what answers while it is built. */
  holdFirstSearch?: Promise<unknown> | undefined;
  /** Told when the thread watching the build stopped, and in how long it is started again. */
  onWatcherStopped?: (restartInMs: number) => void;
  /** Where the search of a build without a usable prepared one is kept once made (kept-search.ts); none: not kept. */
  keptSearchDirectory?: string;
};

/** The whole of a docs site's text fits; images or downloads past these are streamed from disk. */
const defaultHoldLimits: HoldLimits = { maxFileBytes: 2 * 1024 * 1024, maxTotalBytes: 128 * 1024 * 1024 };

/** The search over a build's sections once its index is read; a failed index is built again on its own. */
async function searchOf(sections: readonly DocSection[], read: IndexWithMeaning | string): Promise<SearchEngine> {
  return typeof read === 'string' ? buildSearchEngineInBackground(sections) : searchEngineFromIndex(sections, read);
}

/** The first build's search, once its sections and index are in (and `holdFirstSearch` has settled). */
async function firstSearchOf(reading: Reading, options: SiteFollowerOptions): Promise<SearchEngine> {
  await options.holdFirstSearch;
  const read = await reading.sections;
  if (read.kind !== 'sections') throw new Error(read.kind === 'no-sections' ? read.reason : 'no build was served');
  options.onSectionsSource?.(read.from);
  return searchOf(read.sections, await reading.index);
}

/** Reads a rebuild in a worker: the snapshot to swap in once it is read, or why the previous one is kept. */
function readRebuild(siteDirectory: string, options: SiteFollowerOptions, previous: SiteSnapshot) {
  const reading = readInWorker({
    siteDirectory,
    limits: options.limits ?? defaultHoldLimits,
    publicOrigin: options.publicOrigin,
    keptSearchDirectory: options.keptSearchDirectory,
    servedSectionsKey: searchIsReady(previous.search) ? previous.sectionsKey : undefined,
    awaitPreparing: true,
    servedFiles: [...previous.files].map(([urlPath, file]) => [urlPath, file.etag, heldBytesOf(file)]),
  });
  return { snapshot: load(reading, options, previous), cancel: reading.cancel };
}

async function load(
  reading: Reading,
  options: SiteFollowerOptions,
  previous: SiteSnapshot,
): Promise<SiteSnapshot | string> {
  const files = await reading.files;
  if (files.kind === 'changed') return 'the build changed while it was read';
  if (files.kind === 'failed') return files.reason;
  const read = await reading.sections;
  if (read.kind === 'no-sections') return read.reason;
  // Stopped for a newer build once its files and sections were in: it is not swapped in.
  if (reading.cancelled !== undefined) return reading.cancelled;
  options.onSectionsSource?.(read.kind === 'same-sections' ? { unchanged: true } : read.from);
  const site = files.site;
  const snapshotOf = (search: SearchEngine) =>
    siteSnapshot({ ...site, sections: search.sections }, search, {
      strictTransport: options.strictTransport,
      previous,
    });
  try {
    // The same pages as the build served: its search is theirs (one index in memory, not two while swapping).
    if (read.kind === 'same-sections') {
      const same = await snapshotOf(previous.search);
      return reading.cancelled ?? same;
    }
    const index = await reading.index;
    // A reading stopped for a newer build: its index is not made here instead, nor its snapshot swapped in.
    if (reading.cancelled !== undefined) return reading.cancelled;
    const next = await snapshotOf(await searchOf(read.sections, index));
    return reading.cancelled ?? next;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The module a thread could not load, as Node names it: `Cannot find module '/…/x.js'` (then ` imported from …`). */
const missingModule = /^Cannot find module '([^']+)'/;

/**
 * Why the first build cannot be served, and what to do. The build reader is a file of the compiled server's own
 * (dist/built-site-worker.js): missing, or missing one of its chunks, the server is incomplete and building the site
 * again would change nothing. Anything else is the build's.
 */
export function cannotServe(siteDirectory: string, reason: string, ownDirectory: string = serverDirectory): Error {
  const missing = missingModule.exec(reason)?.[1];
  const file = missing?.startsWith('file:') ? fileURLToPath(missing) : missing;
  const within = file === undefined ? undefined : path.relative(ownDirectory, file);
  if (file !== undefined && within && !within.startsWith('..') && !path.isAbsolute(within)) {
    return new Error(
      `The compiled server is incomplete: its own file ${file} is missing. ` +
        'Compile it again (npm run build -w server), then start it (npm start).',
    );
  }
  return new Error(`${siteDirectory} cannot be served: ${reason}. Build the site first (npm run build).`);
}

/**
 * Serves the built site as one snapshot and follows rebuilds: file system events (debounced) start a background read
 * of the new build; it is swapped in whole once complete (its 404 page written, its files unchanged while read), and
 * the previous snapshot goes on serving meanwhile. Docusaurus replaces the build directory, so its parent is watched
 * too and the watch on the build is renewed when it reappears.
 */
export async function followSite(siteDirectory: string, options: SiteFollowerOptions): Promise<SiteFollower> {
  const firstReading = readInWorker({
    siteDirectory,
    limits: options.limits ?? defaultHoldLimits,
    publicOrigin: options.publicOrigin,
    keptSearchDirectory: options.keptSearchDirectory,
  });
  const firstFiles = await firstReading.files;
  if (firstFiles.kind === 'changed') throw cannotServe(siteDirectory, 'the build changed while it was read');
  if (firstFiles.kind === 'failed') throw cannotServe(siteDirectory, firstFiles.reason);
  // The pages are served at once; their sections follow, and search answers once the first index is in (503 with
  // Retry-After until then).
  let first: SiteSnapshot;
  try {
    first = await siteSnapshot({ ...firstFiles.site, sections: [] }, searchBeingBuilt([]), {
      strictTransport: options.strictTransport,
    });
  } catch (error) {
    throw cannotServe(siteDirectory, (error as Error).message);
  }
  let snapshot = first;
  let closed = false;
  const firstFingerprint = first.fingerprint;
  // No closure of this function holds the first reading or snapshot: each would keep the first build's files and
  // sections in memory for as long as the server runs (a closure holds what any closure of its function reads).
  const firstSearch = firstSearchOf(firstReading, options)
    .then((search) => {
      // A rebuild swapped in meanwhile came with its own index.
      if (!closed && snapshot.fingerprint === firstFingerprint && !searchIsReady(snapshot.search))
        snapshot = { ...snapshot, search };
    })
    .catch((error: unknown) => {
      if (!closed) options.onKeptPrevious(`the search index could not be built: ${(error as Error).message}`);
    });
  // Stops the first reading when the follower is closed before it is done (its thread may be parsing a large
  // handbook for minutes); let go of once it is, so as not to hold the reading.
  let cancelFirst: Reading['cancel'] | undefined = firstReading.cancel;
  void firstSearch.then(() => {
    cancelFirst = undefined;
  });
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  /** Stops the rebuild being read. */
  let cancelRead: ((reason: string) => void) | undefined;

  async function refresh() {
    do {
      readAgain = false;
      const read = readRebuild(siteDirectory, options, snapshot);
      cancelRead = read.cancel;
      const next = await read.snapshot;
      cancelRead = undefined;
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
    // What is being read is already out of date: a build being written, or one whose prepared search has just landed.
    // Its pages parsed at a hundred times the handbook would take minutes and a gigabyte for nothing.
    cancelRead?.('the build changed while it was read');
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void watcher.then((watching) => watching?.rewatch());
      if (reading) readAgain = true;
      else reading = refresh().finally(() => (reading = undefined));
    }, options.quietMs ?? 300);
  }
  // Watched once the first search is in (watching thousands of files takes a core for seconds, which the start needs);
  // a change made before is told by the build's fingerprint then.
  const watcher = firstSearch.then(() =>
    closed
      ? undefined
      : watchBuildInWorker(siteDirectory, () => snapshot.fingerprint, changed, {
          onStopped: options.onWatcherStopped,
        }),
  );

  return {
    current: () => snapshot,
    searchReady: () => firstSearch,
    async settled() {
      await (await watcher)?.watching;
      while (timer || reading) await (reading ?? new Promise((resolve) => setTimeout(resolve, 20)));
    },
    close() {
      closed = true;
      clearTimeout(timer);
      cancelRead?.('the server is stopping');
      cancelFirst?.('the server is stopping');
      void watcher.then((watching) => watching?.close());
    },
  };
}
