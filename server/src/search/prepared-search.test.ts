import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtSiteDirectory, readRecordedRanking, topSections } from '../../test-support/recorded-ranking.js';
import { openBodyFile } from './body-file.js';
import { searchEngineFromIndex } from './engine.js';
import { unpackSections } from './packed-sections.js';
import {
  encodePreparedSearch,
  formatVersion,
  type Header,
  preparedSearchFile,
  writePreparedSearch,
} from './prepared-search.js';
import { readPreparedSearch } from './prepared-search-reader.js';
import { indexSections } from './section-terms.js';
import { readDocSections } from './sections.js';

const sections = readDocSections(builtSiteDirectory);
const index = indexSections(sections);
const key = 'pages-key';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function preparedBuild(bytes = encodePreparedSearch(key, sections, index)) {
  const directory = mkdtempSync(path.join(tmpdir(), 'prepared-search-'));
  directories.push(directory);
  writeFileSync(path.join(directory, preparedSearchFile), bytes);
  return directory;
}

const loaded = (directory: string) => {
  const read = readPreparedSearch(directory, key);
  if (read.kind !== 'loaded') throw new Error(`not loaded: ${read.reason}`);
  const { sectionParts } = read;
  const parts = Array.from({ length: sectionParts.count }, (_, at) => {
    const part = sectionParts.part(at);
    if (part.bodies instanceof Uint8Array) throw new Error('the bodies were read from the file');
    const { file, digest, partOffsets } = part.bodies;
    return unpackSections(part, openBodyFile(file, digest, partOffsets));
  });
  sectionParts.close();
  return { sections: parts.flat(), index: read.index };
};

describe('a prepared search', () => {
  it('givesBackTheSectionsAndAnIndexThatRankTheRecordedQuestionsAsBefore', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'prepared-search-'));
    directories.push(directory);
    writePreparedSearch(directory, key, sections, index);
    const read = loaded(directory);
    expect(read.sections).toEqual(sections);
    expect(read.index.terms).toEqual(index.terms);
    expect(read.index.documents).toEqual(index.documents);
    expect(read.index.latent?.sectionVectors).toEqual(index.latent?.sectionVectors);
    const engine = await searchEngineFromIndex(read.sections, read.index);
    for (const { terms, copilotTop, searchBoxTop } of readRecordedRanking()) {
      expect(topSections(engine, terms, false)).toEqual(copilotTop);
      expect(topSections(engine, terms, true)).toEqual(searchBoxTop);
    }
  });

  it('isMissingWhenTheBuildHasNone', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'prepared-search-'));
    directories.push(directory);
    expect(readPreparedSearch(directory, key).kind).toBe('missing');
  });

  it('isStaleForOtherPages', () => {
    expect(readPreparedSearch(preparedBuild(), 'another-key')).toEqual({
      kind: 'stale',
      reason: 'made for other pages',
    });
  });

  it.each([
    ['format', formatVersion - 1, new RegExp(`format ${formatVersion - 1}`)],
    ['code', 'an older parser', /another version of the server/],
  ])('isStaleWhenMadeIn another %s', (field, value, reason) => {
    const bytes = encodePreparedSearch(key, sections, index);
    const headerEnd = 12 + bytes.readUInt32LE(8);
    const header = { ...JSON.parse(bytes.toString('utf8', 12, headerEnd)), [field]: value };
    const headerBytes = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerBytes.length);
    const read = readPreparedSearch(
      preparedBuild(Buffer.concat([bytes.subarray(0, 8), length, headerBytes, bytes.subarray(headerEnd)])),
      key,
    );
    expect(read).toEqual({ kind: 'stale', reason: expect.stringMatching(reason) });
  });

  it.each([
    [
      'a part placed elsewhere in its header',
      (header: Header) => ({
        ...header,
        parts: header.parts.map((part) => (part.name === 'names.0' ? { ...part, offset: part.offset + 8 } : part)),
      }),
    ],
    ['fewer section parts in its header', (header: Header) => ({ ...header, sectionParts: header.sectionParts - 1 })],
  ])('isCorruptWhen %s, its digest the same', (_case, damage) => {
    const bytes = encodePreparedSearch(key, sections, index);
    const headerEnd = 12 + bytes.readUInt32LE(8);
    const headerBytes = Buffer.from(JSON.stringify(damage(JSON.parse(bytes.toString('utf8', 12, headerEnd)))));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerBytes.length);
    const damaged = Buffer.concat([bytes.subarray(0, 8), length, headerBytes, bytes.subarray(headerEnd)]);
    expect(readPreparedSearch(preparedBuild(damaged), key)).toEqual({ kind: 'corrupt', reason: expect.any(String) });
  });

  it.each([
    ['one byte of its body changed', (bytes: Buffer) => bytes.with(bytes.length - 100, (bytes.at(-100) ?? 0) ^ 0xff)],
    ['cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length / 2)],
    ['cut inside its header', (bytes: Buffer) => bytes.subarray(0, 20)],
    ['another file', () => Buffer.from('<html>not a prepared search</html>')],
    ['empty', () => Buffer.alloc(0)],
  ])('isCorruptWhen %s', (_case, damage) => {
    const damaged = Buffer.from(damage(encodePreparedSearch(key, sections, index)));
    expect(readPreparedSearch(preparedBuild(damaged), key).kind).toBe('corrupt');
  });

  it('isWrittenWhole: never found half-written under its own name', () => {
    const directory = preparedBuild();
    writePreparedSearch(directory, key, sections.slice(0, 10), indexSections(sections.slice(0, 10)));
    expect(loaded(directory).sections).toHaveLength(10);
    expect(readFileSync(path.join(directory, preparedSearchFile)).subarray(0, 8).toString()).toBe('ACMESRCH');
  });

  it('isCorruptWhen a byte of its body changed in a file written a part at a time (its header padded)', () => {
    const directory = preparedBuild();
    writePreparedSearch(directory, key, sections, index);
    const file = path.join(directory, preparedSearchFile);
    const bytes = readFileSync(file);
    expect(loaded(directory).sections).toHaveLength(sections.length);
    // The header's room is padded with spaces after its JSON.
    expect(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))).toMatch(/} +$/);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    expect(readPreparedSearch(directory, key)).toEqual({
      kind: 'corrupt',
      reason: 'its bytes do not match their digest',
    });
  });
});
