/** Run in a worker thread by site-follower.ts: reads one build and posts it back, or why it could not. */
import { parentPort, workerData } from 'node:worker_threads';
import { type BuiltSite, fingerprintOf, type HoldLimits, readBuiltSite } from './built-site.js';
import { cachedDocSections } from './doc-sections-cache.js';

export type BuiltSiteRequest = { siteDirectory: string; limits: HoldLimits };
/** `changed` when files moved while they were read: a build still being written, to be read again once quiet. */
export type BuiltSiteReply =
  | { kind: 'read'; site: BuiltSite }
  | { kind: 'changed' }
  | { kind: 'failed'; reason: string };

const { siteDirectory, limits } = workerData as BuiltSiteRequest;
let reply: BuiltSiteReply;
try {
  // The parser (cheerio) is loaded only when the sections are not known from the build: a second of a first start.
  const site = await readBuiltSite(
    siteDirectory,
    limits,
    async (pages, key) => cachedDocSections(key) ?? (await import('../search/sections.js')).docSectionsOf(pages),
  );
  reply = fingerprintOf(siteDirectory) === site.fingerprint ? { kind: 'read', site } : { kind: 'changed' };
} catch (error) {
  reply = { kind: 'failed', reason: (error as Error).message };
}
/** The file bytes are moved to the server's thread, not copied (readFileSync gives each file a buffer of its own). */
const transfer = new Set<ArrayBuffer>();
if (reply.kind === 'read') {
  for (const file of reply.site.files)
    for (const bytes of Object.values(file.held)) transfer.add(bytes.buffer as ArrayBuffer);
}
parentPort?.postMessage(reply, [...transfer]);
