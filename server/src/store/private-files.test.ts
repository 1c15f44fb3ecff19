import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepDataDirectoryPrivate, makePrivate } from './private-files.js';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function looseTree() {
  const root = mkdtempSync(path.join(tmpdir(), 'acme-private-'));
  made.push(root);
  mkdirSync(path.join(root, 'pglite', 'base'), { recursive: true });
  writeFileSync(path.join(root, 'pglite', 'base', '16384'), 'a reader question');
  writeFileSync(path.join(root, 'elsewhere'), 'not ours to change');
  chmodSync(root, 0o755);
  chmodSync(path.join(root, 'pglite'), 0o777);
  chmodSync(path.join(root, 'pglite', 'base'), 0o755);
  chmodSync(path.join(root, 'pglite', 'base', '16384'), 0o666);
  chmodSync(path.join(root, 'elsewhere'), 0o644);
  symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'pglite', 'link'));
  return root;
}

const modeOf = (entry: string) => lstatSync(entry).mode & 0o777;

describe('makePrivate', () => {
  it('closesTheEmbeddedDatabaseToOtherUsers: folders become 0700 and files 0600, links are not followed', async () => {
    const root = looseTree();
    const { tightened, failed } = await makePrivate(path.join(root, 'pglite'));
    expect(failed).toEqual([]);
    expect(tightened).toHaveLength(3);
    expect(modeOf(path.join(root, 'pglite'))).toBe(0o700);
    expect(modeOf(path.join(root, 'pglite', 'base'))).toBe(0o700);
    expect(modeOf(path.join(root, 'pglite', 'base', '16384'))).toBe(0o600);
    // The link's target is outside what was made private: left as it was.
    expect(modeOf(path.join(root, 'elsewhere'))).toBe(0o644);
  });

  it('warns once for a loose DATA_DIR and says nothing for a private one', async () => {
    const root = looseTree();
    const warnings: string[] = [];
    await keepDataDirectoryPrivate(root, { warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([expect.stringContaining(`DATA_DIR ${root} was open to other local users (5 files`)]);
    await keepDataDirectoryPrivate(root, { warn: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(1);
  });

  it('leaves a DATA_DIR that does not exist yet to be made', async () => {
    const warnings: string[] = [];
    await keepDataDirectoryPrivate(path.join(tmpdir(), 'acme-private-never-made'), { warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
  });
});
