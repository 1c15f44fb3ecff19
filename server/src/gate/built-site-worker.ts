/**
 * Run in a worker thread by site-reader.ts: reads one build and posts its files back, or why it could not; then its
 * sections, then their search index, so the server serves the pages while the search is being made. The sections and
 * index come from the build's prepared search when it has a valid one (prepared-search.ts); otherwise the pages are
 * parsed and indexed here.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { transferablesOf } from '../search/inverted-index.js';
import { keepSearch, readKeptSearch } from '../search/kept-search.js';
import { type IndexWithMeaning, latentTransferables } from '../search/latent-ranking.js';
import { heldPacked, packSections } from '../search/packed-sections.js';
import { preparingMarker, sectionsPerPart } from '../search/prepared-search.js';
import { type PreparedSearch, readPreparedSearch, type SectionParts } from '../search/prepared-search-reader.js';
import { indexSections } from '../search/section-terms.js';
import type { BuiltPage } from '../search/sections.js';
import { type BuiltFiles, fingerprintOf, readBuiltSite, unfinishedBuild } from './built-site.js';
import { packFiles } from './packed-files.js';
import type { BuiltSiteRequest, ReadSource, SearchIndexReply, SiteMessage } from './site-messages.js';

const { siteDirectory, limits, publicOrigin, servedSectionsKey, awaitPreparing, servedFiles, keptSearchDirectory } =
  workerData as BuiltSiteRequest;
const served = new Map(servedFiles?.map(([urlPath, etag, heldBytes]) => [urlPath, { etag, heldBytes }]));

/** A marker older than this was left by a preparation that died: the build is read without waiting. */
const preparingForAtMostMs = 30 * 60 * 1000;

function beingPrepared(): boolean {
  try {
    return Date.now() - statSync(path.join(siteDirectory, preparingMarker)).mtimeMs < preparingForAtMostMs;
  } catch {
    return false;
  }
}

type Sections = { from: ReadSource; sectionCount: number; parts: SectionParts; index: () => IndexWithMeaning };

function readFiles():
  | { site: BuiltFiles; pages: BuiltPage[]; heldBuffers: ArrayBuffer[] }
  | Exclude<SiteMessage, { kind: 'read-packed' }> {
  // Docusaurus writes its 404 page last: a build without it is still being written, and none of it is read (at a
  // hundred times the handbook, its pages parsed would be minutes of a core and a gigabyte for nothing).
  if (!existsSync(path.join(siteDirectory, '404.html'))) return { kind: 'failed', reason: unfinishedBuild };
  if (awaitPreparing && beingPrepared()) return { kind: 'failed', reason: 'its search is being prepared' };
  try {
    const read = readBuiltSite(siteDirectory, limits, publicOrigin, served);
    return fingerprintOf(siteDirectory) === read.site.fingerprint ? read : { kind: 'changed' };
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}

const fromFile = (read: Extract<PreparedSearch, { kind: 'loaded' }>, from: ReadSource): Sections => ({
  from,
  sectionCount: read.index.documentCount,
  parts: read.sectionParts,
  index: () => read.index,
});

/**
 * The sections and index of the build: from its prepared search, else from the search this server kept for its pages
 * (kept-search.ts), else its pages parsed and indexed here, and kept then (and read back from there, so the sections'
 * bodies stay in the file). Or why there are none.
 */
async function sectionsOf(site: BuiltFiles, pages: BuiltPage[]): Promise<Sections | string> {
  const prepared = readPreparedSearch(siteDirectory, site.sectionsKey);
  if (prepared.kind === 'loaded') return fromFile(prepared, { prepared: true });
  const kept = keptSearchDirectory === undefined ? undefined : readKeptSearch(keptSearchDirectory, site.sectionsKey);
  if (kept?.kind === 'loaded') return fromFile(kept, { prepared: false, reason: prepared.reason, kept: 'read' });
  // A kept search refused (stale, damaged) says so too: it is why the pages are parsed again.
  const reason =
    kept === undefined || kept.kind === 'missing'
      ? prepared.reason
      : `${prepared.reason}; the kept one is ${kept.kind}: ${kept.reason}`;
  // The parser (htmlparser2) is loaded only when the build has no valid prepared search.
  const sections = heldPacked((await import('../search/sections.js')).docSectionsIn(pages), sectionsPerPart);
  // Pages are read again when parsed: files that moved meanwhile may have mixed two builds, which the rebuild that
  // moved them replaces. A prepared search is of the very pages read (its key) and needs no second look.
  if (fingerprintOf(siteDirectory) !== site.fingerprint) return 'the build changed while its sections were read';
  const inMemory = (
    index: () => IndexWithMeaning,
    kept?: Extract<ReadSource, { prepared: false }>['kept'],
  ): Sections => ({
    from: { prepared: false, reason, ...(kept === undefined ? {} : { kept }) },
    sectionCount: sections.length,
    parts: {
      count: Math.ceil(sections.length / sectionsPerPart),
      part: (at) => packSections(sections.slice(at * sectionsPerPart, (at + 1) * sectionsPerPart)),
      close: () => {},
    },
    index,
  });
  let index: IndexWithMeaning;
  try {
    index = indexSections(sections);
  } catch (error) {
    // Said as the index's failure, once the sections are sent: the server's thread indexes them again on its own.
    return inMemory(() => {
      throw error;
    });
  }
  let notKept: string | undefined;
  if (keptSearchDirectory !== undefined) {
    try {
      keepSearch(keptSearchDirectory, site.sectionsKey, sections, index);
      const written = readKeptSearch(keptSearchDirectory, site.sectionsKey);
      if (written.kind === 'loaded') return fromFile(written, { prepared: false, reason, kept: 'written' });
      notKept = written.reason;
    } catch (error) {
      notKept = (error as Error).message;
    }
  }
  return inMemory(() => index, notKept === undefined ? undefined : { notWritten: notKept });
}

const post = (message: SiteMessage, transferList: ArrayBuffer[] = []) => parentPort?.postMessage(message, transferList);
const asked = () => new Promise((resolve) => parentPort?.once('message', resolve));

const files = readFiles();
if ('site' in files) {
  const { site, pages, heldBuffers } = files;
  post({ kind: 'read-packed', files: packFiles(site, heldBuffers) }, heldBuffers);
  if (site.sectionsKey === servedSectionsKey) post({ kind: 'same-sections' });
  else await readSections(site, pages);
} else post(files);

async function readSections(site: BuiltFiles, pages: BuiltPage[]) {
  let sections: Sections | undefined;
  try {
    const read = await sectionsOf(site, pages);
    if (typeof read === 'string') post({ kind: 'no-sections', reason: read });
    else sections = read;
  } catch (error) {
    post({ kind: 'no-sections', reason: (error as Error).message });
  }
  if (sections) {
    const { from, sectionCount, parts } = sections;
    post({ kind: 'sections-from', from, sectionCount });
    for (let at = 0; at < parts.count; at += 1) {
      await asked();
      const part = parts.part(at);
      const bytes = part.bodies instanceof Uint8Array ? [part.bodies.buffer as ArrayBuffer] : [];
      post({ kind: 'sections-part', part }, [
        ...bytes,
        part.offsets.buffer as ArrayBuffer,
        part.names.buffer as ArrayBuffer,
      ]);
    }
    parts.close();
    let indexed: SearchIndexReply;
    try {
      indexed = { kind: 'indexed', index: sections.index() };
    } catch (error) {
      indexed = { kind: 'index-failed', reason: (error as Error).message };
    }
    post(
      indexed,
      indexed.kind === 'indexed' ? [...transferablesOf(indexed.index), ...latentTransferables(indexed.index)] : [],
    );
  }
}
