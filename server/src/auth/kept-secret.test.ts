import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { keptSecret, sessionSecretOf } from './kept-secret.js';

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

  it('replaces a file too short to be a secret (one a crash left empty), and says so', () => {
    const file = path.join(directory, 'short-secret');
    writeFileSync(file, '');
    const kept = keptSecret(file);
    expect(kept).toEqual({ secret: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/), replaced: true });
    expect(keptSecret(file)).toEqual({ secret: 'secret' in kept ? kept.secret : '' });
  });

  it('warns, naming the file, that every reader is signed out when a 5-byte secret is replaced', () => {
    const file = path.join(directory, 'five-byte-secret');
    writeFileSync(file, 'abcde');
    const warnings: unknown[][] = [];
    const log = { warn: (...line: unknown[]) => warnings.push(line) } as unknown as FastifyBaseLogger;
    const secret = sessionSecretOf({ sessionSecret: 'random-for-this-start', keptSessionSecretFile: file }, log);
    expect(secret).toBe(readFileSync(file, 'utf8').trim());
    expect(warnings).toEqual([[{ file }, expect.stringContaining(`the session secret in ${file} was shorter than`)]]);
    expect(String(warnings[0]?.[1])).toContain('every reader is signed out once');
    // The next start keeps the new secret, and has nothing to say.
    expect(sessionSecretOf({ sessionSecret: 'another-start', keptSessionSecretFile: file }, log)).toBe(secret);
    expect(warnings).toHaveLength(1);
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
