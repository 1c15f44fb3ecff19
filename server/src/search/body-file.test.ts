import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { docSection } from '../../test-support/doc-sections.js';
import { openBodyFile } from './body-file.js';
import { type BodiesInFile, unpackSections } from './packed-sections.js';
import { preparedSearchFile, writePreparedSearch } from './prepared-search.js';
import { readPreparedSearch } from './prepared-search-reader.js';
import { indexSections } from './section-terms.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const runbook = (words: string) => [
  docSection('/runbook', 'Runbook', 'Restart', `Restart the worker ${words}.`),
  docSection('/runbook', 'Runbook', 'Rotate', [{ kind: 'code', language: 'sh', code: `rotate --keys ${words}` }]),
];

/** Writes a build's prepared search of these sections and reads it as the reader thread does. */
function prepared(directory: string, sections: ReturnType<typeof runbook>) {
  writePreparedSearch(directory, 'key', sections, indexSections(sections));
  const read = readPreparedSearch(directory, 'key');
  if (read.kind !== 'loaded') throw new Error(read.reason);
  const part = read.sectionParts.part(0);
  read.sectionParts.close();
  if (part.bodies instanceof Uint8Array) throw new Error('the bodies were read from the file');
  return { ...part, bodies: part.bodies as BodiesInFile };
}

describe('the bodies of a prepared search, left in its file', () => {
  it('are read from the file the reader checked, even once a newer search is renamed over it', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'body-file-'));
    directories.push(directory);
    const part = prepared(directory, runbook('every night'));
    const { file, digest, partOffsets } = part.bodies;
    const sections = unpackSections(part, openBodyFile(file, digest, partOffsets));
    prepared(directory, runbook('at noon, with a much longer sentence than before'));
    expect(sections.map((section) => [section.text, section.blocks])).toEqual(
      runbook('every night').map((section) => [section.text, section.blocks]),
    );
  });

  it('are not opened from another file than the one checked (another search renamed over it first)', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'body-file-'));
    directories.push(directory);
    const { bodies } = prepared(directory, runbook('every night'));
    prepared(directory, runbook('at noon'));
    expect(openBodyFile(bodies.file, bodies.digest, bodies.partOffsets)).toBeUndefined();
    rmSync(path.join(directory, preparedSearchFile));
    expect(openBodyFile(bodies.file, bodies.digest, bodies.partOffsets)).toBeUndefined();
  });

  it('close their file once no section of its build is left, after a newer search was renamed over it', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const directory = mkdtempSync(path.join(tmpdir(), 'body-file-'));
    directories.push(directory);
    /** This process's descriptors open on the (removed) prepared search of the directory. */
    const openOnIt = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path.join(directory, preparedSearchFile));
        } catch {
          return false;
        }
      }).length;
    // Sections made in a function of their own: a variable of the test would hold them itself.
    const readOnce = () => {
      const part = prepared(directory, runbook('every night'));
      const { file, digest, partOffsets } = part.bodies;
      return unpackSections(part, openBodyFile(file, digest, partOffsets))[0]?.text;
    };
    expect(readOnce()).toBe('Restart the worker every night.');
    prepared(directory, runbook('at noon'));
    expect(openOnIt()).toBe(1);
    for (let round = 0; round < 20 && openOnIt() > 0; round += 1) {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(openOnIt()).toBe(0);
  });
});
