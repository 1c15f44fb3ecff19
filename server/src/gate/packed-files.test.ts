import { describe, expect, it } from 'vitest';
import type { BuiltFile, BuiltFiles } from './built-site.js';
import { heldSlabs } from './held-slabs.js';
import { packFiles, unpackFiles } from './packed-files.js';

const built = (urlPath: string, etag: string): BuiltFile => ({ urlPath, etag, held: {}, onDisk: {} });
const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString() : undefined);

/** A build of `count` files: odd ones held in two encodings, every third one on disk, every fifth unchanged. */
function buildOf(count: number) {
  const slabs = heldSlabs();
  const files = Array.from({ length: count }, (_, at) => {
    const file = built(`/docs/page ${at}/index.html`, `"etag-${at}"`);
    if (at % 5 === 0) file.unchanged = true;
    else if (at % 3 === 0) file.onDisk.br = `/site/docs/page ${at}/index.html.br`;
    else if (at % 2 === 1) {
      slabs.hold(file, 'gzip', Buffer.from(`gzip of ${at}`));
      slabs.hold(file, 'identity', Buffer.from(`page ${at}`));
    }
    return file;
  });
  const site: BuiltFiles = {
    fingerprint: 'f1',
    files,
    scriptHashes: ['sha256-a'],
    canonicalPaths: [
      ['/docs/page 1/index.html', '/docs/page 1/'],
      ['/index.html', '/'],
    ],
    sectionsKey: 'k1',
    builtAt: 1234,
  };
  return { site, buffers: slabs.buffers() };
}

describe('packFiles and unpackFiles', () => {
  it('give back every file, its held bytes in the buffers sent, its streamed encodings and its being unchanged', async () => {
    // More files than one turn makes, so that the turns meet.
    const { site, buffers } = buildOf(2500);
    const packed = packFiles(site, buffers);
    // What the message holds: no object per file.
    expect(Object.values(packed).filter((value) => Array.isArray(value) && value.length > 100)).toEqual([
      packed.onDisk,
    ]);
    const heldText = (files: BuiltFile[]) => files.map((file) => [text(file.held.gzip), text(file.held.identity)]);
    // Read before the buffers are moved, as the reader thread's views then see nothing.
    const sentText = heldText(site.files);
    const unpacked = await unpackFiles(structuredClone(packed, { transfer: packed.buffers }));
    expect(unpacked.files.length).toBe(2500);
    expect(unpacked.files.map((file) => [file.urlPath, file.etag, file.unchanged, file.onDisk])).toEqual(
      site.files.map((file) => [file.urlPath, file.etag, file.unchanged, file.onDisk]),
    );
    expect(heldText(unpacked.files)).toEqual(sentText);
    expect(text(unpacked.files[7]?.held.identity)).toBe('page 7');
    expect(unpacked.canonicalPaths).toEqual(site.canonicalPaths);
    expect([unpacked.fingerprint, unpacked.sectionsKey, unpacked.builtAt, unpacked.scriptHashes]).toEqual([
      'f1',
      'k1',
      1234,
      ['sha256-a'],
    ]);
  });

  it('packs an empty build', async () => {
    const site: BuiltFiles = {
      fingerprint: 'f',
      files: [],
      scriptHashes: [],
      canonicalPaths: [],
      sectionsKey: 'k',
      builtAt: 1,
    };
    expect(await unpackFiles(packFiles(site, []))).toEqual(site);
  });

  it('refuses held bytes outside the buffers it is given', () => {
    const file = built('/main.js', '"e"');
    file.held.identity = Buffer.from('console.log(1)');
    expect(() =>
      packFiles(
        { fingerprint: 'f', files: [file], scriptHashes: [], canonicalPaths: [], sectionsKey: 'k', builtAt: 1 },
        [],
      ),
    ).toThrow('/main.js');
  });
});
