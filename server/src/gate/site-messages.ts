/** What site-follower.ts and its build reader (built-site-worker.ts, a worker thread) say to each other. */
import type { DocSection } from '../search/doc-page.js';
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import type { SectionPart } from '../search/packed-sections.js';
import type { BuiltFiles, HoldLimits } from './built-site.js';
import type { PackedFiles } from './packed-files.js';

export type BuiltSiteRequest = {
  siteDirectory: string;
  limits: HoldLimits;
  publicOrigin: string | undefined;
  /**
   * The `sectionsKey` of the build being served, when its search is in: a build whose pages are the same (a stylesheet,
   * an image or a script rebuilt) keeps that search, and its sections are neither read nor indexed again.
   */
  servedSectionsKey?: string | undefined;
  /**
   * A rebuild whose search is being prepared (its marker written lately, prepare-build.ts) is not read: that search is
   * renamed into place when done, a change that has it read then. A first start reads the build as it is.
   */
  awaitPreparing?: boolean;
  /** Of the build served: each file's URL path, etag and bytes held, so that its unchanged files are not read again. */
  servedFiles?: Array<[urlPath: string, etag: string, heldBytes: number]>;
  /** Where the search of a build without a usable prepared one is kept once made (kept-search.ts); none: not kept. */
  keptSearchDirectory?: string | undefined;
};
/**
 * The first message: the build's files, served at once. `changed` when files moved while they were read: a build
 * still being written, to be read again once quiet.
 */
export type FilesReply = { kind: 'read'; site: BuiltFiles } | { kind: 'changed' } | { kind: 'failed'; reason: string };
/** The files as the reader sends them: packed (packed-files.ts), unpacked on the server's thread in turns. */
export type FilesMessage = Exclude<FilesReply, { kind: 'read' }> | { kind: 'read-packed'; files: PackedFiles };
/**
 * Where a build's sections and index came from: its prepared search, its pages parsed (and why), or the build served
 * before it, whose pages are the same.
 */
export type SectionsSource = ReadSource | { unchanged: true };
/**
 * Where the sections of a build read anew came from: its prepared search, or not (why), and then whether the search
 * this server keeps in DATA_DIR for its pages was read, or written once they were parsed, or could not be (kept-search.ts).
 */
export type ReadSource =
  | { prepared: true }
  | { prepared: false; reason: string; kept?: 'read' | 'written' | { notWritten: string } };
/** The sections of a build as the server's thread has them in the end, or why it has none. */
export type SectionsReply =
  | { kind: 'sections'; sections: DocSection[]; from: ReadSource }
  | { kind: 'same-sections' }
  | { kind: 'no-sections'; reason: string };
/** The last message: the search index of its sections, or why there is none. */
export type SearchIndexReply = { kind: 'indexed'; index: IndexWithMeaning } | { kind: 'index-failed'; reason: string };
/**
 * After the files, `sections-from` says where the sections come from and how many there are; they follow packed in
 * parts (packed-sections.ts, the prepared search's own), each sent once the server's thread asks for it with
 * `moreSections`: unpacking a large handbook's sections at once would hold up that thread, a part takes a few
 * milliseconds.
 */
export type SiteMessage =
  | FilesMessage
  | { kind: 'sections-from'; from: ReadSource; sectionCount: number }
  | { kind: 'sections-part'; part: SectionPart }
  | { kind: 'same-sections' }
  | { kind: 'no-sections'; reason: string }
  | SearchIndexReply;
export const moreSections = 'more-sections';

/**
 * What the build watcher (build-watcher-worker.ts) says: once its watches are set, with the build's fingerprint then
 * (a change made before is told by it), and at every change seen after.
 */
export type WatcherMessage = { kind: 'watching'; fingerprint: string | undefined } | 'changed';
/** Asks the build watcher to watch the build again if its watch ended (the build was replaced). */
export type WatcherCommand = 'rewatch';
