/**
 * Run in a worker thread by site-follower.ts: reads one build and posts it back, or why it could not; then the search
 * index of its sections, so the server can serve the pages while the index is being built. The sections and index come
 * from the build's prepared search when it has a valid one (prepared-search.ts); otherwise the pages are parsed and
 * indexed here.
 */
import * as workerThreads from 'node:worker_threads';
import type { DocSection } from '../search/doc-page.js';
import { transferablesOf } from '../search/inverted-index.js';
import { type IndexWithMeaning, latentTransferables } from '../search/latent-ranking.js';
import { readPreparedSearch, sectionsPerPart } from '../search/prepared-search.js';
import { indexSections } from '../search/section-terms.js';
import type { BuiltPage } from '../search/sections.js';
import { type BuiltFiles, fingerprintOf, readBuiltSite } from './built-site.js';
import type { BuiltSiteRequest, SearchIndexReply, SectionsSource, SiteMessage } from './site-messages.js';

const { parentPort, workerData } = workerThreads;
const { siteDirectory, limits, publicOrigin } = workerData as BuiltSiteRequest;

type Read = {
  site: BuiltFiles;
  sectionsFrom: SectionsSource;
  sectionCount: number;
  sectionParts: string[];
  index: () => IndexWithMeaning;
};

async function read(): Promise<Read | Exclude<SiteMessage, { kind: 'read' }>> {
  try {
    const { site, pages } = readBuiltSite(siteDirectory, limits, publicOrigin);
    const sections = await sectionsOf(site, pages);
    // Pages are read again when parsed: files that moved meanwhile may have mixed two builds.
    return fingerprintOf(siteDirectory) === site.fingerprint ? { site, ...sections } : { kind: 'changed' };
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}

async function sectionsOf(site: BuiltFiles, pages: BuiltPage[]): Promise<Omit<Read, 'site'>> {
  const prepared = readPreparedSearch(siteDirectory, site.sectionsKey);
  if (prepared.kind === 'loaded') {
    const { sectionParts, index } = prepared;
    return {
      sectionsFrom: { prepared: true },
      sectionCount: index.documentCount,
      sectionParts,
      index: () => index,
    };
  }
  // The parser (cheerio) is loaded only when the build has no valid prepared search.
  const sections: DocSection[] = (await import('../search/sections.js')).docSectionsOf(pages);
  const sectionParts: string[] = [];
  for (let start = 0; start < sections.length; start += sectionsPerPart)
    sectionParts.push(JSON.stringify(sections.slice(start, start + sectionsPerPart)));
  return {
    sectionsFrom: { prepared: false, reason: prepared.reason },
    sectionCount: sections.length,
    sectionParts,
    index: () => indexSections(sections),
  };
}

const reply = await read();
/**
 * The file bytes are moved to the server's thread, not copied. Node 22 and later may hand out buffers that cannot be
 * moved (Buffer's shared pool, marked untransferable): those are copied, since moving one fails the whole message.
 * Node 20 has no way to ask and gives each file a buffer of its own.
 */
const { isMarkedAsUntransferable } = workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean };
const untransferable = (bytes: ArrayBuffer) => isMarkedAsUntransferable?.(bytes) ?? false;
const post = (message: SiteMessage, transferList: ArrayBuffer[] = []) => parentPort?.postMessage(message, transferList);
const asked = () => new Promise((resolve) => parentPort?.once('message', resolve));

if ('site' in reply) {
  const transfer = new Set<ArrayBuffer>();
  for (const file of reply.site.files)
    for (const bytes of Object.values(file.held)) {
      const buffer = bytes.buffer as ArrayBuffer;
      if (!untransferable(buffer)) transfer.add(buffer);
    }
  const { site, sectionCount, sectionsFrom, sectionParts } = reply;
  post({ kind: 'read', site, sectionCount, sectionsFrom }, [...transfer]);
  for (const json of sectionParts) {
    await asked();
    post({ kind: 'sections', json });
  }
  let indexed: SearchIndexReply;
  try {
    indexed = { kind: 'indexed', index: reply.index() };
  } catch (error) {
    indexed = { kind: 'index-failed', reason: (error as Error).message };
  }
  post(
    indexed,
    indexed.kind === 'indexed' ? [...transferablesOf(indexed.index), ...latentTransferables(indexed.index)] : [],
  );
} else post(reply);
