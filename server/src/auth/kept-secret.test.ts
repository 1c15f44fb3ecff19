import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keptSecret(file)).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });

  it('is not taken from a file too short to be a secret, and not written over either', () => {
    const file = path.join(directory, 'short-secret');
    writeFileSync(file, 'short\n');
    expect(keptSecret(file)).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('short\n');
  });

  it('is undefined where nothing can be written', () => {
    const blocker = path.join(directory, 'a-file');
    writeFileSync(blocker, '');
    expect(keptSecret(path.join(blocker, 'session-secret'))).toBeUndefined();
  });
});
