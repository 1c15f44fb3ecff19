import { closeSync, openSync, readSync } from 'node:fs';

/** The most bytes of held files put in one buffer. */
const slabBytes = 16 * 1024 * 1024;

/** A file that holds bytes per encoding (built-site.ts's BuiltFile). */
type Holder<Encoding extends string> = { held: Partial<Record<Encoding, Uint8Array>> };
type Part = { file: Holder<string>; encoding: string; at: number; length: number };

/** Where a build's held bytes are written as its files are read, and the buffers they are moved in. */
export type HeldSlabs = {
  /** Holds a copy of `bytes` as the file's `encoding`. */
  hold<Encoding extends string>(file: Holder<Encoding>, encoding: Encoding, bytes: Uint8Array): void;
  /** Reads `size` bytes of a file on disk straight into the buffers, as the file's `encoding`. */
  holdFromDisk<Encoding extends string>(
    file: Holder<Encoding>,
    encoding: Encoding,
    diskPath: string,
    size: number,
  ): void;
  /** Every buffer, each exactly as large as what it holds, to be moved to the server's thread with the files. */
  buffers(): ArrayBuffer[];
};

/**
 * A build's held bytes in a few buffers of up to 16 MB, written as its files are read; each file points at its part.
 *
 * Moving thousands of buffers one by one holds the server's thread (each backing store registered, and the collector
 * run again and again as the external memory grows), which on a rebuild is time no request is answered: a few buffers
 * move at once. The bytes are read straight into them: read into buffers of their own first and copied, a hundred
 * times the handbook's pages were twice their size in the reader thread at once, thousands of small allocations the
 * allocator kept from the process after the thread was gone. (Node's own small Buffers would also come from its
 * pool's slabs, marked untransferable: a message copies them whole.)
 */
export function heldSlabs(): HeldSlabs {
  const closed: ArrayBuffer[] = [];
  let slab: Uint8Array | undefined;
  let used = 0;
  let parts: Part[] = [];

  /** The slab's used bytes as a buffer of their own size, the files pointed at it (a copy only when room is left). */
  const close = () => {
    if (!slab) return;
    const kept = used === slab.byteLength ? slab : slab.slice(0, used);
    for (const { file, encoding, at, length } of parts) file.held[encoding] = kept.subarray(at, at + length);
    closed.push(kept.buffer as ArrayBuffer);
    slab = undefined;
    used = 0;
    parts = [];
  };
  /** Room for `length` bytes of the file's encoding: the rest of the slab, or a new one (a larger file's own). */
  const room = (file: Holder<string>, encoding: string, length: number): Uint8Array => {
    if (!slab || used + length > slab.byteLength) {
      close();
      slab = new Uint8Array(Math.max(slabBytes, length));
    }
    const at = used;
    used += length;
    parts.push({ file, encoding, at, length });
    const view = slab.subarray(at, at + length);
    file.held[encoding] = view;
    return view;
  };

  return {
    hold(file, encoding, bytes) {
      room(file, encoding, bytes.byteLength).set(bytes);
    },
    holdFromDisk(file, encoding, diskPath, size) {
      const view = room(file, encoding, size);
      const descriptor = openSync(diskPath, 'r');
      try {
        let done = 0;
        while (done < size) {
          const count = readSync(descriptor, view, done, size - done, done);
          // Shorter than listed: the build is being written, which its fingerprint, looked at after the read, tells.
          if (count === 0) break;
          done += count;
        }
      } finally {
        closeSync(descriptor);
      }
    },
    buffers() {
      close();
      return closed.splice(0);
    },
  };
}
