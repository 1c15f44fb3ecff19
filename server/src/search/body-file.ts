/**
 * The bodies of a prepared search's sections, left in its file and read when a section is (packed-sections.ts). At a
 * hundred times the handbook they are about a hundred megabytes: held in memory, a rebuild held them twice while its
 * search was swapped in. A question reads the bodies of some twenty sections, a few kilobytes from the page cache.
 */
import { close, closeSync, openSync } from 'node:fs';
import type { BodyReader } from './packed-sections.js';
import { preparedSearchHeader, readExactly } from './prepared-search-reader.js';

/**
 * Closes a prepared search file once no section of its build is left to read from it, off the server's thread: by then
 * a newer search has been renamed over it, and closing the last descriptor of a removed file frees its blocks, which
 * took 35 to 40 ms of the event loop at a hundred times the handbook (a 170 MB file). An error means it was closed.
 */
const closing = new FinalizationRegistry<number>((descriptor) => close(descriptor, () => undefined));

/**
 * Opens the prepared search file that the reader thread checked, or gives undefined when it is another file by now:
 * the same file has the same digest of its body (a search prepared again is renamed over it). `partOffsets` are where
 * each part's bodies start within the body.
 */
export function openBodyFile(file: string, digest: string, partOffsets: readonly number[]): BodyReader | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return undefined;
  }
  const read = preparedSearchHeader(descriptor);
  if (typeof read === 'string' || read.header.digest !== digest) {
    closeSync(descriptor);
    return undefined;
  }
  const { bodyStart } = read;
  const reader: BodyReader = {
    read: (part, start, end) =>
      readExactly(descriptor, bodyStart + (partOffsets[part] ?? Number.NaN) + start, end - start),
  };
  closing.register(reader, descriptor);
  return reader;
}
