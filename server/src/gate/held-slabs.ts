import type { BuiltFile } from './built-site.js';

/** The most bytes of held files put in one buffer. */
const slabBytes = 16 * 1024 * 1024;

type Held = { file: BuiltFile; encoding: keyof BuiltFile['held']; bytes: Uint8Array };

/**
 * Copies the held bytes of a build's files into a few buffers of up to 16 MB, each exactly as large as what it holds,
 * and points each file at its part; returns the buffers, to be moved to the server's thread with the files.
 *
 * Moving thousands of buffers one by one holds the server's thread (each backing store registered, and the collector
 * run again and again as the external memory grows), which on a rebuild is time no request is answered. A few
 * buffers move at once. It also leaves behind the slabs of Buffer's pool that Node hands out for small files (64 KB
 * on Node 24, marked untransferable: a message copies them whole).
 */
export function packHeldBytes(files: readonly BuiltFile[]): ArrayBuffer[] {
  const groups: Held[][] = [];
  let group: Held[] = [];
  let size = 0;
  for (const file of files) {
    for (const [encoding, bytes] of Object.entries(file.held) as Array<[Held['encoding'], Uint8Array]>) {
      // A file larger than a slab gets one of its own.
      if (group.length > 0 && size + bytes.byteLength > slabBytes) {
        groups.push(group);
        group = [];
        size = 0;
      }
      group.push({ file, encoding, bytes });
      size += bytes.byteLength;
    }
  }
  if (group.length > 0) groups.push(group);
  return groups.map((parts) => {
    const slab = new Uint8Array(parts.reduce((total, { bytes }) => total + bytes.byteLength, 0));
    let at = 0;
    for (const { file, encoding, bytes } of parts) {
      slab.set(bytes, at);
      file.held[encoding] = slab.subarray(at, at + bytes.byteLength);
      at += bytes.byteLength;
    }
    return slab.buffer;
  });
}
