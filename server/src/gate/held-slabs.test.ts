import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltFile } from './built-site.js';
import { heldSlabs } from './held-slabs.js';

const file = (urlPath: string): BuiltFile => ({ urlPath, etag: '"e"', held: {}, onDisk: {} });
const filled = (size: number, value: number) => new Uint8Array(size).fill(value);
const mb = 1024 * 1024;

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('heldSlabs', () => {
  it('puts the held bytes in buffers of at most 16 MB that hold nothing else, each file pointed at its own bytes', () => {
    const slabs = heldSlabs();
    const files = ['/a.js', '/big.bin', '/b.css', '/c.css', '/empty.txt', '/on-disk.png'].map(file);
    const [a, big, b, c, empty] = files as [BuiltFile, BuiltFile, BuiltFile, BuiltFile, BuiltFile];
    slabs.hold(a, 'identity', filled(10, 1));
    slabs.hold(a, 'gzip', filled(5, 2));
    slabs.hold(big, 'identity', filled(20 * mb, 3));
    slabs.hold(b, 'br', filled(9 * mb, 4));
    slabs.hold(c, 'br', filled(9 * mb, 5));
    slabs.hold(empty, 'identity', new Uint8Array(0));
    const buffers = slabs.buffers();
    // The small ones share one; a file larger than a slab has one of its own; 9 + 9 MB do not fit in one.
    expect(buffers.map((buffer) => buffer.byteLength)).toEqual([15, 20 * mb, 9 * mb, 9 * mb]);
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
    expect(a.held.gzip?.[0]).toBe(2);
    expect(c.held.br?.[0]).toBe(5);
    for (const entry of files) for (const bytes of Object.values(entry.held)) expect(buffers).toContain(bytes.buffer);
  });

  it('reads a file on disk straight into its part', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'held-slabs-'));
    directories.push(directory);
    writeFileSync(path.join(directory, 'page.html.gz'), 'zipped page');
    const slabs = heldSlabs();
    const [script, page] = [file('/main.js'), file('/page.html')] as [BuiltFile, BuiltFile];
    slabs.hold(script, 'identity', Buffer.from('console.log(1)'));
    slabs.holdFromDisk(page, 'gzip', path.join(directory, 'page.html.gz'), 'zipped page'.length);
    const [buffer] = slabs.buffers();
    expect(buffer?.byteLength).toBe('console.log(1)zipped page'.length);
    expect(Buffer.from(page.held.gzip ?? []).toString()).toBe('zipped page');
    expect(Buffer.from(script.held.identity ?? []).toString()).toBe('console.log(1)');
    expect(page.held.gzip?.buffer).toBe(buffer);
  });

  it('moves nothing for a build with nothing held', () => {
    expect(heldSlabs().buffers()).toEqual([]);
  });
});
