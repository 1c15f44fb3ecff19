import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readInWorker } from './site-reader.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('readInWorker', () => {
  it('moves the held files in a few buffers that hold nothing else, small files and larger ones, on any Node', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'site-reader-'));
    directories.push(directory);
    mkdirSync(path.join(directory, 'assets', 'js'), { recursive: true });
    mkdirSync(path.join(directory, 'runbook'));
    // Node 24 reads each of these into a 64 KB slab of Buffer's pool: copied whole, each would cost the server 64 KB.
    const sizes = { 'assets/js/tiny.js': 10, 'assets/js/small.js': 1500, 'assets/js/middle.js': 20_000 };
    for (const [file, size] of Object.entries(sizes)) writeFileSync(path.join(directory, file), 'x'.repeat(size));
    writeFileSync(
      path.join(directory, 'runbook', 'index.html'),
      '<html><head><title>Runbook</title></head><body><article><h1>Runbook</h1><p>Restart it.</p></article></body></html>',
    );
    const reading = readInWorker({
      siteDirectory: directory,
      limits: { maxFileBytes: 1_000_000, maxTotalBytes: 10_000_000 },
      publicOrigin: undefined,
    });
    const files = await reading.files;
    await reading.index;
    if (files.kind !== 'read') throw new Error(`the build was not read: ${files.kind}`);
    const held = files.site.files.flatMap((file) =>
      Object.values(file.held).map((bytes) => ({ urlPath: file.urlPath, bytes })),
    );
    expect(held.map(({ urlPath }) => urlPath)).toEqual(
      expect.arrayContaining([
        '/assets/js/tiny.js',
        '/assets/js/small.js',
        '/assets/js/middle.js',
        '/runbook/index.html',
      ]),
    );
    // One buffer here: the files fit in one slab. Node 24 reads each file into a 64 KB slab of Buffer's pool, and
    // Node 20 small ones into an 8 KB one: moved or copied as they are, each would cost the server that much.
    const buffers = new Set(held.map(({ bytes }) => bytes.buffer));
    expect(buffers.size).toBe(1);
    const bufferBytes = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
    expect(bufferBytes).toBe(held.reduce((sum, { bytes }) => sum + bytes.byteLength, 0));
    for (const [file, size] of Object.entries(sizes)) {
      const bytes = held.find(({ urlPath }) => urlPath === `/${file}`)?.bytes ?? new Uint8Array();
      expect(Buffer.from(bytes).toString()).toBe('x'.repeat(size));
    }
  });
});
