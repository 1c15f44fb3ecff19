import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { searchCodeHash } from '../../scripts/search-code.mjs';
import { builtSiteDirectory } from '../../test-support/recorded-ranking.js';
import { keepSearch, readKeptSearch } from './kept-search.js';
import { preparedSearchCode } from './prepared-search.js';
import { indexSections } from './section-terms.js';
import { readDocSections } from './sections.js';

const sections = readDocSections(builtSiteDirectory).slice(0, 12);
const index = indexSections(sections);

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
const keptDirectory = () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'kept-search-'));
  directories.push(directory);
  return path.join(directory, 'search');
};
const aged = (file: string, minutesAgo: number) => {
  const then = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(file, then, then);
};

describe('the search a server keeps in DATA_DIR', () => {
  it('keeps, beside the one written, the one read or written last, not merely the one written last', () => {
    const directory = keptDirectory();
    keepSearch(directory, 'first', sections, index);
    keepSearch(directory, 'second', sections, index);
    aged(path.join(directory, 'first.bin'), 30);
    aged(path.join(directory, 'second.bin'), 20);
    // Served by another server sharing the folder: read, so in use.
    expect(readKeptSearch(directory, 'first').kind).toBe('loaded');
    keepSearch(directory, 'third', sections, index);
    expect(readdirSync(directory).sort()).toEqual(['first.bin', 'third.bin']);
  });

  it('keeps every search used in the last ten minutes: another server may be about to open it', () => {
    const directory = keptDirectory();
    for (const key of ['one', 'two', 'three', 'four']) keepSearch(directory, key, sections, index);
    expect(readdirSync(directory).sort()).toEqual(['four.bin', 'one.bin', 'three.bin', 'two.bin']);
  });

  it('removes partial files left unchanged for a while, not those being written', () => {
    const directory = keptDirectory();
    mkdirSync(directory, { recursive: true });
    const stopped = path.join(directory, 'stopped.bin.1.partial');
    const writing = path.join(directory, 'writing.bin.2.partial');
    for (const file of [stopped, writing]) writeFileSync(file, 'the first bytes of a search file');
    aged(stopped, 15);
    aged(writing, 1);
    keepSearch(directory, 'next', sections, index);
    expect(readdirSync(directory).sort()).toEqual(['next.bin', 'writing.bin.2.partial']);
  });

  it('keeps what it wrote when an older entry cannot be removed', () => {
    const directory = keptDirectory();
    mkdirSync(path.join(directory, 'not-a-file.bin'), { recursive: true });
    aged(path.join(directory, 'not-a-file.bin'), 60);
    keepSearch(directory, 'newer', sections, index);
    keepSearch(directory, 'newest', sections, index);
    expect(readKeptSearch(directory, 'newest').kind).toBe('loaded');
  });

  it('is made by code named by the hash of its sources, run from them as compiled', () => {
    expect(preparedSearchCode).toBe(searchCodeHash(fileURLToPath(new URL('../..', import.meta.url))));
    expect(preparedSearchCode).toMatch(/^[0-9a-f]{64}$/);
  });
});
