/**
 * Run in a worker thread by site-follower.ts: reads one build and posts it back, or why it could not; then indexes its
 * sections for search and posts the index, so the server can serve the pages while the index is being built.
 */
import * as workerThreads from 'node:worker_threads';
import { transferablesOf } from '../search/inverted-index.js';
import { latentTransferables } from '../search/latent-ranking.js';
import { indexSections } from '../search/section-terms.js';
import { fingerprintOf, readBuiltSite } from './built-site.js';
import { cachedDocSections } from './doc-sections-cache.js';
import {
  type BuiltSiteReply,
  type BuiltSiteRequest,
  type SearchIndexReply,
  type SiteMessage,
  sectionsPerPart,
} from './site-messages.js';

const { parentPort, workerData } = workerThreads;
const { siteDirectory, limits, publicOrigin } = workerData as BuiltSiteRequest;
let reply: BuiltSiteReply;
try {
  // The parser (cheerio) is loaded only when the sections are not known from the build: a second of a first start.
  const site = await readBuiltSite(
    siteDirectory,
    limits,
    async (pages, key) => cachedDocSections(key) ?? (await import('../search/sections.js')).docSectionsOf(pages),
    publicOrigin,
  );
  reply = fingerprintOf(siteDirectory) === site.fingerprint ? { kind: 'read', site } : { kind: 'changed' };
} catch (error) {
  reply = { kind: 'failed', reason: (error as Error).message };
}
/**
 * The file bytes are moved to the server's thread, not copied. Node 22 and later may hand out buffers that cannot be
 * moved (Buffer's shared pool, marked untransferable): those are copied, since moving one fails the whole message.
 * Node 20 has no way to ask and gives each file a buffer of its own.
 */
const { isMarkedAsUntransferable } = workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean };
const untransferable = (bytes: ArrayBuffer) => isMarkedAsUntransferable?.(bytes) ?? false;
const transfer = new Set<ArrayBuffer>();
if (reply.kind === 'read') {
  for (const file of reply.site.files)
    for (const bytes of Object.values(file.held)) {
      const buffer = bytes.buffer as ArrayBuffer;
      if (!untransferable(buffer)) transfer.add(buffer);
    }
}
const post = (message: SiteMessage, transferList: ArrayBuffer[] = []) => parentPort?.postMessage(message, transferList);
const asked = () => new Promise((resolve) => parentPort?.once('message', resolve));
if (reply.kind === 'read') {
  const { sections } = reply.site;
  post({ kind: 'read', site: { ...reply.site, sections: [] }, sectionCount: sections.length }, [...transfer]);
  for (let start = 0; start < sections.length; start += sectionsPerPart) {
    await asked();
    post({ kind: 'sections', sections: sections.slice(start, start + sectionsPerPart) });
  }
} else post(reply);

if (reply.kind === 'read') {
  const { sections } = reply.site;
  let indexed: SearchIndexReply;
  try {
    const index = indexSections(sections);
    indexed = { kind: 'indexed', index };
  } catch (error) {
    indexed = { kind: 'index-failed', reason: (error as Error).message };
  }
  post(
    indexed,
    indexed.kind === 'indexed' ? [...transferablesOf(indexed.index), ...latentTransferables(indexed.index)] : [],
  );
}
