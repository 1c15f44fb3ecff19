import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { digestOf, encodePreparedSearch, type Header, preparedSearchFile } from '../search/prepared-search.js';
import { indexSections } from '../search/section-terms.js';
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
    writeFileSync(path.join(directory, '404.html'), '<html><body>Page Not Found</body></html>');
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

  it('reads nothing of a build without its 404 page (still being written)', async () => {
    const directory = siteWithPages(3);
    rmSync(path.join(directory, '404.html'));
    const reading = readInWorker({ siteDirectory: directory, limits, publicOrigin: undefined });
    expect(await reading.files).toEqual({ kind: 'failed', reason: expect.stringMatching(/no 404.html yet/) });
    expect(await reading.index).toBe('the build was not read');
  });

  it('gives the files of a rebuild with the pages served, unpacked over several turns while the thread ends', async () => {
    // More files than one turn unpacks: the thread's last message ('same-sections') and its exit arrive meanwhile.
    const directory = siteWithPages(6000);
    const first = readInWorker({ siteDirectory: directory, limits, publicOrigin: undefined });
    const firstFiles = await first.files;
    if (firstFiles.kind !== 'read') throw new Error(`the build was not read: ${firstFiles.kind}`);
    await first.index;
    const rebuild = readInWorker({
      siteDirectory: directory,
      limits,
      publicOrigin: undefined,
      servedSectionsKey: firstFiles.site.sectionsKey,
    });
    expect(await rebuild.sections).toEqual({ kind: 'same-sections' });
    const files = await rebuild.files;
    expect(files.kind).toBe('read');
    if (files.kind === 'read') expect(files.site.files.length).toBe(firstFiles.site.files.length);
  });

  it('stops a reading that is cancelled: what has not arrived fails with the reason given', async () => {
    const directory = siteWithPages(400);
    const reading = readInWorker({ siteDirectory: directory, limits, publicOrigin: undefined });
    expect((await reading.files).kind).toBe('read');
    reading.cancel('the build changed while it was read');
    expect(await reading.sections).toEqual({ kind: 'no-sections', reason: 'the build changed while it was read' });
    expect(await reading.index).toBe('the build changed while it was read');
  });

  it('stops, and goes on serving, when a part of a prepared search does not unpack though its digest holds', async () => {
    const directory = siteWithPages(0);
    // A doc page as Docusaurus writes one: its sections are what the prepared search holds.
    mkdirSync(path.join(directory, 'runbook'));
    writeFileSync(
      path.join(directory, 'runbook', 'index.html'),
      '<html><head><title>Runbook</title></head><body><article><div class="theme-doc-markdown markdown"><h1>Runbook</h1><p>Restart the worker.</p><h2 id="deploy">Deploy</h2><p>Run deploy.</p></div></article></body></html>',
    );
    const first = readInWorker({ siteDirectory: directory, limits, publicOrigin: undefined });
    const files = await first.files;
    if (files.kind !== 'read') throw new Error(`the build was not read: ${files.kind}`);
    await first.index;
    const read = await first.sections;
    if (read.kind !== 'sections' || read.sections.length === 0) throw new Error('the build has no sections');
    const { sections } = read;
    const bytes = encodePreparedSearch(files.site.sectionsKey, sections, indexSections(sections));
    const headerEnd = 12 + bytes.readUInt32LE(8);
    const { digest: _digest, ...described } = JSON.parse(bytes.toString('utf8', 12, headerEnd)) as Header;
    const heads = described.parts.find((part) => part.name === 'sections.0');
    if (!heads) throw new Error('the prepared search has no sections');
    // Its first part's heads no longer JSON, and a digest made over that: as if written so.
    const body = Buffer.from(bytes.subarray(headerEnd));
    body.fill(0x7b, heads.offset, heads.offset + heads.length);
    const headerBytes = Buffer.from(
      JSON.stringify({ ...described, digest: digestOf(described, createHash('sha256').update(body).digest('hex')) }),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerBytes.length);
    writeFileSync(
      path.join(directory, preparedSearchFile),
      Buffer.concat([bytes.subarray(0, 8), length, headerBytes, body]),
    );
    const reading = readInWorker({ siteDirectory: directory, limits, publicOrigin: undefined });
    expect(await reading.sections).toEqual({
      kind: 'no-sections',
      reason: expect.stringMatching(/^its sections could not be read \(/),
    });
    expect(await reading.index).toMatch(/^its sections could not be read/);
  });
});

const limits = { maxFileBytes: 1_000_000, maxTotalBytes: 10_000_000 };

/** A finished build of `count` doc pages. */
function siteWithPages(count: number) {
  const directory = mkdtempSync(path.join(tmpdir(), 'site-reader-'));
  directories.push(directory);
  writeFileSync(path.join(directory, '404.html'), '<html><body>Page Not Found</body></html>');
  for (let at = 0; at < count; at += 1) {
    mkdirSync(path.join(directory, `page-${at}`));
    writeFileSync(
      path.join(directory, `page-${at}`, 'index.html'),
      `<html><head><title>Page ${at}</title></head><body><article><h1>Page ${at}</h1><h2 id="a">Step</h2><p>Restart worker ${at}.</p></article></body></html>`,
    );
  }
  return directory;
}
