/**
 * Run in a worker thread by site-reader.ts: reads one build and posts its files back, or why it could not; then its
 * sections, then their search index, so the server serves the pages while the search is being made. The sections and
 * index come from the build's prepared search when it has a valid one (prepared-search.ts); otherwise the pages are
 * parsed and indexed here.
 */
import * as workerThreads from 'node:worker_threads';
import type { DocSection } from '../search/doc-page.js';
import { transferablesOf } from '../search/inverted-index.js';
import { type IndexWithMeaning, latentTransferables } from '../search/latent-ranking.js';
import { packSections } from '../search/packed-sections.js';
import { sectionsPerPart } from '../search/prepared-search.js';
import { readPreparedSearch, type SectionParts } from '../search/prepared-search-reader.js';
import { indexSections } from '../search/section-terms.js';
import type { BuiltPage } from '../search/sections.js';
import { type BuiltFiles, fingerprintOf, readBuiltSite } from './built-site.js';
import type { BuiltSiteRequest, SearchIndexReply, SectionsSource, SiteMessage } from './site-messages.js';

const { parentPort, workerData } = workerThreads;
const { siteDirectory, limits, publicOrigin } = workerData as BuiltSiteRequest;

type Sections = { from: SectionsSource; sectionCount: number; parts: SectionParts; index: () => IndexWithMeaning };

function readFiles(): { site: BuiltFiles; pages: BuiltPage[] } | Exclude<SiteMessage, { kind: 'read' }> {
  try {
    const read = readBuiltSite(siteDirectory, limits, publicOrigin);
    return fingerprintOf(siteDirectory) === read.site.fingerprint ? read : { kind: 'changed' };
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}

async function sectionsOf(site: BuiltFiles, pages: BuiltPage[]): Promise<Sections> {
  const prepared = readPreparedSearch(siteDirectory, site.sectionsKey);
  if (prepared.kind === 'loaded') {
    const { sectionParts, index } = prepared;
    return { from: { prepared: true }, sectionCount: index.documentCount, parts: sectionParts, index: () => index };
  }
  // The parser (cheerio) is loaded only when the build has no valid prepared search.
  const sections: DocSection[] = (await import('../search/sections.js')).docSectionsOf(pages);
  return {
    from: { prepared: false, reason: prepared.reason },
    sectionCount: sections.length,
    parts: {
      count: Math.ceil(sections.length / sectionsPerPart),
      part: (at) => packSections(sections.slice(at * sectionsPerPart, (at + 1) * sectionsPerPart)),
      close: () => {},
    },
    index: () => indexSections(sections),
  };
}

/**
 * The file bytes are moved to the server's thread, not copied. Node 22 and later read a file into a slab of Buffer's
 * pool (64 KB on Node 24) marked untransferable, and a message copies such a slab whole: at 100x that cost 180 MB on
 * the server's thread, and 270 MB more here while the message was written. Bytes that do not fill a buffer of their own
 * are therefore copied once here into one of exactly their size, which is moved. Node 20 has no way to ask.
 */
const { isMarkedAsUntransferable } = workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean };
const untransferable = (bytes: ArrayBuffer) => isMarkedAsUntransferable?.(bytes) ?? false;
function movable(bytes: Uint8Array): Uint8Array {
  const ownsItsBuffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return ownsItsBuffer && !untransferable(bytes.buffer as ArrayBuffer) ? bytes : new Uint8Array(bytes);
}
const post = (message: SiteMessage, transferList: ArrayBuffer[] = []) => parentPort?.postMessage(message, transferList);
const asked = () => new Promise((resolve) => parentPort?.once('message', resolve));

const files = readFiles();
if ('site' in files) {
  const { site, pages } = files;
  const transfer = new Set<ArrayBuffer>();
  for (const file of site.files)
    for (const [encoding, bytes] of Object.entries(file.held) as Array<[keyof typeof file.held, Uint8Array]>) {
      const moved = movable(bytes);
      file.held[encoding] = moved;
      transfer.add(moved.buffer as ArrayBuffer);
    }
  post({ kind: 'read', site }, [...transfer]);
  let sections: Sections | undefined;
  try {
    sections = await sectionsOf(site, pages);
    // Pages are read again when parsed: files that moved meanwhile may have mixed two builds, which the rebuild that
    // moved them replaces. A prepared search is of the very pages read (its key) and needs no second look.
    if (!sections.from.prepared && fingerprintOf(siteDirectory) !== site.fingerprint) {
      sections.parts.close();
      sections = undefined;
      post({ kind: 'no-sections', reason: 'the build changed while its sections were read' });
    }
  } catch (error) {
    post({ kind: 'no-sections', reason: (error as Error).message });
  }
  if (sections) {
    const { from, sectionCount, parts } = sections;
    post({ kind: 'sections-from', from, sectionCount });
    for (let at = 0; at < parts.count; at += 1) {
      await asked();
      const part = parts.part(at);
      post({ kind: 'sections-part', part }, [part.bodies.buffer as ArrayBuffer, part.offsets.buffer as ArrayBuffer]);
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
} else post(files);
