import { openBodyFile } from '../search/body-file.js';
import type { DocSection } from '../search/doc-page.js';
import type { IndexWithMeaning } from '../search/latent-ranking.js';
import { type BodyReader, unpackSections } from '../search/packed-sections.js';
import { startWorker } from '../search/worker-source.js';
import { unpackFiles } from './packed-files.js';
import {
  type BuiltSiteRequest,
  type FilesReply,
  moreSections,
  type ReadSource,
  type SectionsReply,
  type SiteMessage,
} from './site-messages.js';

/**
 * The reader's last messages: the index, or a failure. Run from the sources, the loader it registers would keep it
 * alive after them, so it is ended.
 */
const lastWords = new Set<SiteMessage['kind']>([
  'indexed',
  'index-failed',
  'same-sections',
  'no-sections',
  'changed',
  'failed',
]);

/** A build as the worker reads it: its files first, then its sections, then their search index. */
export type Reading = {
  files: Promise<FilesReply>;
  sections: Promise<SectionsReply>;
  index: Promise<IndexWithMeaning | string>;
  /** Stops the reading (the build changed under it): what has not arrived fails with `reason`, and the thread ends. */
  cancel(reason: string): void;
  /** Why it was stopped, once it was. */
  cancelled?: string;
};

/**
 * Reads a build in a worker thread (built-site-worker.ts): the reading, hashing, parsing and indexing never hold up a
 * request, and their memory goes with the thread. The files are served as soon as they are in.
 */
export function readInWorker(request: BuiltSiteRequest): Reading {
  let files: (reply: FilesReply) => void = () => undefined;
  let sectionsRead: (reply: SectionsReply) => void = () => undefined;
  let index: (reply: IndexWithMeaning | string) => void = () => undefined;
  /** The files arrived and are being unpacked: the thread ending meanwhile (its last message sent) fails nothing. */
  let unpacking = false;
  // The worker may stop or fail after its first messages: later settlements of a promise are ignored.
  const failed = (reason: string) => {
    if (!unpacking) files({ kind: 'failed', reason });
    sectionsRead({ kind: 'no-sections', reason });
    index(reason);
  };
  const worker = startWorker(new URL('./built-site-worker.js', import.meta.url), request, 1024);
  const reading: Reading = {
    files: new Promise((resolve) => (files = resolve)),
    sections: new Promise((resolve) => (sectionsRead = resolve)),
    index: new Promise((resolve) => (index = resolve)),
    cancel(reason) {
      reading.cancelled ??= reason;
      failed(reason);
      void worker.terminate();
    },
  };
  let expected: { from: ReadSource; sectionCount: number } | undefined;
  /** The prepared search file the sections' bodies are read from, when they are left in it. */
  let bodyFile: BodyReader | undefined;
  const sections: DocSection[] = [];
  /** The next part of the sections, asked for on a later turn of the event loop than the last one's arrival. */
  const askForSections = () => setImmediate(() => worker.postMessage(moreSections));
  const haveSections = () => {
    if (!expected || sections.length < expected.sectionCount) return false;
    sectionsRead({ kind: 'sections', sections, from: expected.from });
    return true;
  };
  worker.on('message', (message: SiteMessage) => {
    if (lastWords.has(message.kind)) void worker.terminate();
    if (message.kind === 'indexed') index(message.index);
    else if (message.kind === 'index-failed') index(message.reason);
    else if (message.kind === 'sections-from') {
      expected = message;
      if (!haveSections()) askForSections();
    } else if (message.kind === 'sections-part') {
      const { part } = message;
      if (!(part.bodies instanceof Uint8Array)) {
        const { file, digest, partOffsets } = part.bodies;
        bodyFile ??= openBodyFile(file, digest, partOffsets);
        // Renamed over since the reader checked it: a newer search of the build, which its change has read next.
        if (!bodyFile) return reading.cancel('the build changed while it was read');
      }
      // A part the thread sent that does not unpack (a prepared file damaged past its digest's reach, a bug) stops the
      // reading like any failure of it: thrown here, it would end the server.
      let unpacked: DocSection[];
      try {
        unpacked = unpackSections(part, bodyFile);
      } catch (error) {
        return reading.cancel(`its sections could not be read (${(error as Error).message})`);
      }
      for (const section of unpacked) sections.push(section);
      if (!haveSections()) askForSections();
    } else if (message.kind === 'same-sections') {
      sectionsRead(message);
      index('the build has the pages of the one served, and keeps its search');
    } else if (message.kind === 'no-sections') failed(message.reason);
    else if (message.kind === 'read-packed') {
      unpacking = true;
      unpackFiles(message.files).then(
        (site) => files({ kind: 'read', site }),
        (error: Error) => files({ kind: 'failed', reason: error.message }),
      );
    } else {
      files(message);
      failed('the build was not read');
    }
  });
  worker.once('error', (error) => failed(error.message));
  worker.once('exit', (code) => failed(`the build reader stopped (exit code ${code})`));
  return reading;
}
