/** What site-follower.ts and its build reader (built-site-worker.ts, a worker thread) say to each other. */
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import type { BuiltFiles, BuiltSite, HoldLimits } from './built-site.js';

export type BuiltSiteRequest = { siteDirectory: string; limits: HoldLimits; publicOrigin: string | undefined };
/** `changed` when files moved while they were read: a build still being written, to be read again once quiet. */
export type BuiltSiteReply =
  | { kind: 'read'; site: BuiltSite; sectionsFrom: SectionsSource }
  | { kind: 'changed' }
  | { kind: 'failed'; reason: string };
/** Where a build's sections and index came from: its prepared search, or its pages parsed (and why). */
export type SectionsSource = { prepared: true } | { prepared: false; reason: string };
/** The second message, after a `read`: the search index of its sections, or why there is none. */
export type SearchIndexReply = { kind: 'indexed'; index: IndexWithMeaning } | { kind: 'index-failed'; reason: string };
/**
 * A `read` reply crosses as its files and `sectionCount`, its sections following as JSON text in parts (the prepared
 * search's own, see prepared-search.ts), each sent once the server's thread asks for it with `moreSections`: parsing a
 * large handbook's sections at once would hold up that thread for seconds, a part for a few milliseconds.
 */
export type SiteMessage =
  | Exclude<BuiltSiteReply, { kind: 'read' }>
  | { kind: 'read'; site: BuiltFiles; sectionCount: number; sectionsFrom: SectionsSource }
  | { kind: 'sections'; json: string }
  | SearchIndexReply;
export const moreSections = 'more-sections';
