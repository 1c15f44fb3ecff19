import { describe, expect, it } from 'vitest';
import type { BuiltFile } from './built-site.js';
import { packHeldBytes } from './held-slabs.js';

const file = (urlPath: string, held: BuiltFile['held']): BuiltFile => ({ urlPath, etag: '"e"', held, onDisk: {} });
const filled = (size: number, value: number) => new Uint8Array(size).fill(value);

describe('packHeldBytes', () => {
  it('puts the held bytes in buffers of at most 16 MB that hold nothing else, each file pointed at its own bytes', () => {
    const mb = 1024 * 1024;
    const files = [
      file('/a.js', { identity: filled(10, 1), gzip: filled(5, 2) }),
      file('/big.bin', { identity: filled(20 * mb, 3) }),
      file('/b.css', { br: filled(9 * mb, 4) }),
      file('/c.css', { br: filled(9 * mb, 5) }),
      file('/empty.txt', { identity: new Uint8Array(0) }),
      file('/on-disk.png', {}),
    ];
    const slabs = packHeldBytes(files);
    // The small ones share one; a file larger than a slab has one of its own; 9 + 9 MB do not fit in one.
    expect(slabs.map((slab) => slab.byteLength)).toEqual([15, 20 * mb, 9 * mb, 9 * mb]);
    const values = files.flatMap((entry) =>
      Object.values(entry.held).map((bytes) => [bytes.byteLength, bytes.every((byte) => byte === bytes[0])]),
    );
    expect(values).toEqual([
      [10, true],
      [5, true],
      [20 * mb, true],
      [9 * mb, true],
      [9 * mb, true],
      [0, true],
    ]);
    expect(files[0]?.held.gzip?.[0]).toBe(2);
    expect(files[3]?.held.br?.[0]).toBe(5);
    for (const entry of files) for (const bytes of Object.values(entry.held)) expect(slabs).toContain(bytes.buffer);
  });

  it('moves nothing for a build with nothing held', () => {
    expect(packHeldBytes([file('/on-disk.png', {})])).toEqual([]);
  });
});
