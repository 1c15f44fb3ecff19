/** What site-follower.ts and its build reader (built-site-worker.ts, a worker thread) say to each other. */
import type { DocSection } from '../search/doc-page.js';
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import type { BuiltSite, HoldLimits } from './built-site.js';

export type BuiltSiteRequest = { siteDirectory: string; limits: HoldLimits; publicOrigin: string | undefined };
/** `changed` when files moved while they were read: a build still being written, to be read again once quiet. */
export type BuiltSiteReply =
  | { kind: 'read'; site: BuiltSite }
  | { kind: 'changed' }
  | { kind: 'failed'; reason: string };
/** The second message, after a `read`: the search index of its sections, or why there is none. */
export type SearchIndexReply = { kind: 'indexed'; index: IndexWithMeaning } | { kind: 'index-failed'; reason: string };
/**
 * A `read` reply crosses as its files and `sectionCount`, its sections following in parts of `sectionsPerPart`, each
 * sent once the server's thread asks for it with `moreSections`: a structured clone of a large handbook's sections
 * would hold up that thread for a second or more, a part for a few milliseconds.
 */
export type SiteMessage =
  | Exclude<BuiltSiteReply, { kind: 'read' }>
  | { kind: 'read'; site: BuiltSite; sectionCount: number }
  | { kind: 'sections'; sections: DocSection[] }
  | SearchIndexReply;
export const moreSections = 'more-sections';
export const sectionsPerPart = 1000;
