import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptSecret } from './kept-secret.js';

describe('kept development secret', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'kept-secret-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is made once, readable by its owner only, and the same at the next start', () => {
    const file = path.join(directory, 'data', 'session-secret');
    const first = keptSecret(file);
    expect(first).toEqual({ secret: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keptSecret(file)).toEqual(first);
    expect(readFileSync(file, 'utf8').trim()).toBe('secret' in first ? first.secret : '');
    expect(readdirSync(path.dirname(file))).toEqual(['session-secret']);
  });

  it('replaces a file too short to be a secret (one a crash left empty)', () => {
    const file = path.join(directory, 'short-secret');
    writeFileSync(file, '');
    const kept = keptSecret(file);
    expect(kept).toEqual({ secret: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) });
    expect(keptSecret(file)).toEqual(kept);
  });

  it('tightens the permissions of a secret restored with looser ones', () => {
    const file = path.join(directory, 'restored-secret');
    writeFileSync(file, `${'r'.repeat(40)}\n`);
    chmodSync(file, 0o644);
    expect(keptSecret(file)).toEqual({ secret: 'r'.repeat(40) });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('says why when the path is not a file, or nothing can be written there', () => {
    const folder = path.join(directory, 'a-folder');
    mkdirSync(folder);
    expect(keptSecret(folder)).toEqual({ problem: 'it is not a regular file' });
    const blocker = path.join(directory, 'a-file');
    writeFileSync(blocker, '');
    expect(keptSecret(path.join(blocker, 'session-secret'))).toEqual({ problem: expect.stringContaining('ENOTDIR') });
  });
});
