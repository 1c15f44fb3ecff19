import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

const shortestSecret = 32;
const longestSecret = 1024;

/** `replaced`: the file held something too short to be a secret, and a new secret took its place. */
type Kept = { secret: string; replaced?: true } | { problem: string };

/** The secret in `file`; 'missing' when there is none; 'too short' for one a crash or a hand left unusable. */
function readSecret(file: string): Kept | 'missing' | 'too short' {
  try {
    const stats = lstatSync(file);
    if (!stats.isFile()) return { problem: 'it is not a regular file' };
    if (stats.size > longestSecret) return { problem: `it is larger than ${longestSecret} bytes` };
    // Restored from a backup with looser permissions, say: only the server's user may read it.
    if ((stats.mode & 0o077) !== 0) chmodSync(file, 0o600);
    const secret = readFileSync(file, 'utf8').trim();
    return secret.length >= shortestSecret ? { secret } : 'too short';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return { problem: (error as Error).message };
  }
}

/** Makes the file whole or not at all: written and synced under another name, then linked (or renamed) into place. */
function writeSecret(file: string, replace: boolean) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const unfinished = `${file}.${process.pid}.unfinished`;
  const handle = openSync(unfinished, 'w', 0o600);
  try {
    writeSync(handle, `${randomBytes(48).toString('base64url')}\n`);
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
  try {
    // link fails if another start made the file meanwhile: theirs is kept.
    if (replace) renameSync(unfinished, file);
    else linkSync(unfinished, file);
    const directory = openSync(path.dirname(file), 'r');
    fsyncSync(directory);
    closeSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(unfinished, { force: true });
  }
}

/**
 * The development secret kept in `file` (made once, readable by its owner only), so a restart without SESSION_SECRET
 * keeps readers signed in: session cookies carry a tag made with it. A file too short to be a secret is replaced.
 */
export function keptSecret(file: string): Kept {
  const found = readSecret(file);
  if (typeof found === 'object') return found;
  try {
    writeSecret(file, found === 'too short');
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const made = readSecret(file);
  if (typeof made !== 'object') return { problem: 'it could not be read back' };
  return found === 'too short' && 'secret' in made ? { ...made, replaced: true } : made;
}

/** SESSION_SECRET, else (development) the one kept in DATA_DIR, else one for this start alone. */
export function sessionSecretOf(
  config: Pick<Config, 'sessionSecret' | 'keptSessionSecretFile'>,
  log: FastifyBaseLogger,
): string {
  if (!config.keptSessionSecretFile) return config.sessionSecret;
  const kept = keptSecret(config.keptSessionSecretFile);
  if ('secret' in kept) {
    // The cookies readers hold carry a tag made with whatever secret was there before: none of them is accepted now.
    if (kept.replaced) {
      log.warn(
        { file: config.keptSessionSecretFile },
        `the session secret in ${config.keptSessionSecretFile} was shorter than ${shortestSecret} characters and has been replaced with a new one: every reader is signed out once`,
      );
    }
    return kept.secret;
  }
  log.warn(
    { file: config.keptSessionSecretFile, problem: kept.problem },
    'the session secret cannot be kept in DATA_DIR: readers will be signed out when the server restarts (fix the file, or set SESSION_SECRET)',
  );
  return config.sessionSecret;
}
