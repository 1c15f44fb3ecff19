/**
 * The search a server made itself, kept in DATA_DIR: when a build has no usable prepared search (a site built without
 * `npm run build`'s last step, or prepared by another version of the server), its pages are parsed and indexed once,
 * and the result is written in the prepared search's own format (prepared-search.ts). That start reads it back like a
 * prepared search, so the sections' bodies stay in the file rather than in memory; the next start, or a rebuild to the
 * same pages, reads it instead of parsing again.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import type { DocSection } from './doc-page.js';
import type { IndexWithMeaning } from './latent-ranking.js';
import { writeSearchFile } from './prepared-search.js';
import { type PreparedSearch, readSearchFile } from './prepared-search-reader.js';

/** Its folder in DATA_DIR. */
export const keptSearchFolder = 'search';

/**
 * A file unchanged this long is not being written or read back: a writer stopped or dead leaves its partial file (a
 * live one writes to it without pause, a hundred times the handbook within seconds), and a kept search is opened by
 * the server's thread within seconds of its reader thread reading it (body-file.ts), which sets its time.
 */
const unusedAfterMs = 10 * 60 * 1000;

/** Named by the key of the pages it was made from (a hex digest). */
const keptFileOf = (directory: string, key: string) => path.join(directory, `${key}.bin`);

/**
 * The search kept for pages of `key`, or why there is none to use. One read is marked as in use (its time set to now),
 * so that a later write keeps it as the newest other one (`removeOlder`).
 */
export function readKeptSearch(directory: string, key: string): PreparedSearch {
  const file = keptFileOf(directory, key);
  const read = readSearchFile(file, key, 'none is kept for these pages');
  if (read.kind === 'loaded') {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // Read-only: the file is read all the same, and may be removed sooner by another server's write.
    }
  }
  return read;
}

/**
 * Writes the search of pages of `key` into `directory` (made 0700, the file 0600: the server's user's only), then
 * removes older ones (`removeOlder`).
 */
export function keepSearch(
  directory: string,
  key: string,
  sections: readonly DocSection[],
  index: IndexWithMeaning,
): number {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const file = keptFileOf(directory, key);
  const bytes = writeSearchFile(
    { file, partial: `${file}.${randomUUID()}.partial`, mode: 0o600 },
    key,
    sections,
    index,
  );
  try {
    removeOlder(directory, file);
  } catch {
    // The folder could not be listed: what is there stays, the search just written is kept all the same.
  }
  return bytes;
}

/**
 * Removes the kept searches but `kept`, the newest other one and any used lately (another server sharing the folder
 * may be about to open it), and partial files left by a stopped writer. What cannot be removed stays: it costs room,
 * not the search just written.
 */
function removeOlder(directory: string, kept: string) {
  const others = readdirSync(directory)
    .map((name) => path.join(directory, name))
    .filter((file) => file !== kept)
    .flatMap((file) => {
      try {
        return [{ file, modifiedAt: statSync(file).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.modifiedAt - a.modifiedAt);
  const searches = others.filter(({ file }) => file.endsWith('.bin'));
  const unused = ({ modifiedAt }: { modifiedAt: number }) => Date.now() - modifiedAt > unusedAfterMs;
  const deadPartials = others.filter((other) => other.file.endsWith('.partial') && unused(other));
  // Unlinked while a server still reads one: its open descriptor keeps the bytes until it is closed (body-file.ts).
  for (const { file } of [...searches.slice(1).filter(unused), ...deadPartials]) {
    try {
      rmSync(file, { force: true });
    } catch {
      // A folder by that name, or a file the server may not remove.
    }
  }
}
