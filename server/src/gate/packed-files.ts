/**
 * A build's files as the reader thread sends them (built-site-worker.ts) and the server's thread unpacks them, a part
 * per turn of its event loop (site-reader.ts).
 *
 * Sent as objects, a hundred times the handbook's files were some 30,000 objects and views to make in one message:
 * with the collector runs their making set off, the server's thread was held for 75 to 90 ms (measured with a timer
 * every 5 ms) while the message was read. Packed, the message is a few strings and arrays, and the objects are made
 * a few hundred files at a time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BuiltFile, BuiltFiles, Encoding } from './built-site.js';

const encodings: readonly Encoding[] = ['br', 'gzip', 'identity'];
/** Per file and encoding in `held`: the buffer's number (or one of these), the offset and the length. */
const fieldsPerEncoding = 3;
const notHeld = -1;
const unchangedFile = -2;
const separator = '\0';
/** Files made per turn of the event loop: some 2,000 objects and strings. */
const filesPerTurn = 500;

export type PackedFiles = Omit<BuiltFiles, 'files' | 'canonicalPaths'> & {
  /** Each file's URL path and etag, in turn, joined by NUL (which no file name holds). */
  names: string;
  /** Per file and encoding: which of `buffers` holds its bytes (or `notHeld`, `unchangedFile`), where, how many. */
  held: Int32Array;
  /** The encodings streamed from disk: [file number, encoding, path]. */
  onDisk: Array<[file: number, encoding: Encoding, diskPath: string]>;
  /** Each page's file and its one address (its folder's path: no NUL either), in turn, joined by NUL. */
  canonicalPaths: string;
  /** The held bytes, moved with the message. */
  buffers: ArrayBuffer[];
};

/** Packs a build's files whose held bytes all lie in `buffers` (held-slabs.ts). */
export function packFiles(site: BuiltFiles, buffers: ArrayBuffer[]): PackedFiles {
  const { files, canonicalPaths, ...rest } = site;
  const numbers = new Map(buffers.map((buffer, at) => [buffer, at]));
  const held = new Int32Array(files.length * encodings.length * fieldsPerEncoding).fill(notHeld);
  const onDisk: PackedFiles['onDisk'] = [];
  files.forEach((file, at) => {
    for (const [slot, encoding] of encodings.entries()) {
      const field = (at * encodings.length + slot) * fieldsPerEncoding;
      const bytes = file.held[encoding];
      if (file.unchanged) held[field] = unchangedFile;
      else if (bytes) {
        const buffer = numbers.get(bytes.buffer as ArrayBuffer);
        if (buffer === undefined) throw new Error(`the held bytes of ${file.urlPath} are not in the buffers sent`);
        held.set([buffer, bytes.byteOffset, bytes.byteLength], field);
      }
      const diskPath = file.onDisk[encoding];
      if (diskPath !== undefined) onDisk.push([at, encoding, diskPath]);
    }
  });
  return {
    ...rest,
    names: files.flatMap((file) => [file.urlPath, file.etag]).join(separator),
    held,
    onDisk,
    canonicalPaths: canonicalPaths.flat().join(separator),
    buffers,
  };
}

/** Cuts the parts out of a joined string one at a time (as they are needed, not all at once). */
function partsOf(joined: string) {
  let from = joined === '' ? 1 : 0;
  return {
    next() {
      if (from > joined.length) throw new Error('the files sent are cut short');
      const end = joined.indexOf(separator, from);
      const part = joined.slice(from, end < 0 ? undefined : end);
      from = end < 0 ? joined.length + 1 : end + 1;
      return part;
    },
    done: () => from > joined.length,
  };
}

/** The files again, each with its name, etag and held bytes, a few hundred per turn of the event loop. */
export async function unpackFiles(packed: PackedFiles): Promise<BuiltFiles> {
  const { names, held, onDisk, canonicalPaths, buffers, ...rest } = packed;
  const count = held.length / (encodings.length * fieldsPerEncoding);
  const name = partsOf(names);
  const files: BuiltFile[] = [];
  for (let start = 0; start < count; start += filesPerTurn) {
    if (start > 0) await nextTurn();
    for (let at = start; at < Math.min(count, start + filesPerTurn); at += 1) {
      const file: BuiltFile = { urlPath: name.next(), etag: name.next(), held: {}, onDisk: {} };
      for (const [slot, encoding] of encodings.entries()) {
        const field = (at * encodings.length + slot) * fieldsPerEncoding;
        const buffer = held[field] ?? notHeld;
        if (buffer === unchangedFile) file.unchanged = true;
        else if (buffer !== notHeld) {
          file.held[encoding] = new Uint8Array(buffers[buffer] as ArrayBuffer, held[field + 1], held[field + 2]);
        }
      }
      files.push(file);
    }
  }
  if (!name.done()) throw new Error('the files sent do not match their names');
  for (const [at, encoding, diskPath] of onDisk) {
    const file = files[at];
    if (file) file.onDisk[encoding] = diskPath;
  }
  const page = partsOf(canonicalPaths);
  const pages: BuiltFiles['canonicalPaths'] = [];
  while (!page.done()) {
    await nextTurn();
    for (let made = 0; made < filesPerTurn && !page.done(); made += 1) pages.push([page.next(), page.next()]);
  }
  return { ...rest, files, canonicalPaths: pages };
}
