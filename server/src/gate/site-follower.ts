import { existsSync, type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import type { DocSection } from '../search/doc-page.js';
import { buildSearchEngineInBackground, type SearchEngine, searchEngineFromIndex } from '../search/engine.js';
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import { searchBeingBuilt } from '../search/search-being-built.js';
import { shareRepeatedStrings } from '../search/shared-strings.js';
import { startWorker } from '../search/worker-source.js';
import type { BuiltFiles, HoldLimits } from './built-site.js';
import {
  type BuiltSiteReply,
  type BuiltSiteRequest,
  moreSections,
  type SectionsSource,
  type SiteMessage,
} from './site-messages.js';
import { type SiteSnapshot, siteSnapshot } from './site-snapshot.js';

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
};

/** The whole of a docs site's text fits; images or downloads past these are streamed from disk. */
const defaultHoldLimits: HoldLimits = { maxFileBytes: 2 * 1024 * 1024, maxTotalBytes: 128 * 1024 * 1024 };

/** A build as the worker reads it: its files and sections first, then the search index of its sections. */
type Reading = { site: Promise<BuiltSiteReply>; index: Promise<IndexWithMeaning | string> };

/**
 * Reads a build in a worker thread: the HTML parsing, hashing and indexing never hold up a request, and their memory
 * goes with the thread.
 */
function readInWorker(request: BuiltSiteRequest): Reading {
  let site: (reply: BuiltSiteReply) => void = () => undefined;
  let index: (reply: IndexWithMeaning | string) => void = () => undefined;
  const reading: Reading = {
    site: new Promise((resolve) => (site = resolve)),
    index: new Promise((resolve) => (index = resolve)),
  };
  // The worker may stop or fail after its first message: later settlements of a promise are ignored.
  const failed = (reason: string) => {
    site({ kind: 'failed', reason });
    index(reason);
  };
  const worker = startWorker(new URL('./built-site-worker.js', import.meta.url), request, 1024);
  let read: { site: BuiltFiles; sectionCount: number; sectionsFrom: SectionsSource } | undefined;
  const sections: DocSection[] = [];
  /** The next part of the sections, asked for on a later turn of the event loop than the last one's arrival. */
  const askForSections = () => setImmediate(() => worker.postMessage(moreSections));
  const haveSections = () => {
    if (!read || sections.length < read.sectionCount) return false;
    site({ kind: 'read', site: { ...read.site, sections }, sectionsFrom: read.sectionsFrom });
    return true;
  };
  worker.on('message', (message: SiteMessage) => {
    if (message.kind === 'indexed') index(message.index);
    else if (message.kind === 'index-failed') index(message.reason);
    else if (message.kind === 'read') {
      read = message;
      if (!haveSections()) askForSections();
    } else if (message.kind === 'sections') {
      for (const section of JSON.parse(message.json) as DocSection[]) sections.push(section);
      if (!haveSections()) askForSections();
    } else {
      site(message);
      index('the build was not read');
    }
  });
  worker.once('error', (error) => failed(error.message));
  worker.once('exit', (code) => failed(`the build reader stopped (exit code ${code})`));
  return reading;
}

/** The search over a build's sections once its index is read; a failed index is built again on its own. */
async function searchOf(
  sections: readonly DocSection[],
  index: Promise<IndexWithMeaning | string>,
): Promise<SearchEngine> {
  await shareRepeatedStrings(sections);
  const read = await index;
  return typeof read === 'string' ? buildSearchEngineInBackground(sections) : searchEngineFromIndex(sections, read);
}

async function load(
  siteDirectory: string,
  options: SiteFollowerOptions,
  previous?: SiteSnapshot,
): Promise<SiteSnapshot | string> {
  const reading = readInWorker({
    siteDirectory,
    limits: options.limits ?? defaultHoldLimits,
    publicOrigin: options.publicOrigin,
  });
  const reply = await reading.site;
  if (reply.kind === 'changed') return 'the build changed while it was read';
  if (reply.kind === 'failed') return reply.reason;
  options.onSectionsSource?.(reply.sectionsFrom);
  try {
    const search = await searchOf(reply.site.sections, reading.index);
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
  const firstReading = readInWorker({
    siteDirectory,
    limits: options.limits ?? defaultHoldLimits,
    publicOrigin: options.publicOrigin,
  });
  const firstReply = await firstReading.site;
  const cannotServe = (reason: string) =>
    new Error(`${siteDirectory} cannot be served: ${reason}. Build the site first (npm run build).`);
  if (firstReply.kind === 'changed') throw cannotServe('the build changed while it was read');
  if (firstReply.kind === 'failed') throw cannotServe(firstReply.reason);
  options.onSectionsSource?.(firstReply.sectionsFrom);
  // The pages are served at once; search answers once the first index is in (503 with Retry-After until then).
  const { sections } = firstReply.site;
  let first: SiteSnapshot;
  try {
    first = siteSnapshot(firstReply.site, searchBeingBuilt(sections), { strictTransport: options.strictTransport });
  } catch (error) {
    throw cannotServe((error as Error).message);
  }
  let snapshot = first;
  let closed = false;
  const firstSearch = (async () => {
    await options.holdFirstSearch;
    const search = await searchOf(sections, firstReading.index);
    // A rebuild swapped in meanwhile came with its own index.
    if (!closed && snapshot === first) snapshot = { ...first, search };
  })().catch((error: unknown) =>
    options.onKeptPrevious(`the search index could not be built: ${(error as Error).message}`),
  );
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;
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
    searchReady: () => firstSearch,
    async settled() {
      await firstSearch;
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
