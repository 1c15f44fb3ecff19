import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

const minimumLength = 32;

function readSecret(file: string): string | undefined {
  try {
    const secret = readFileSync(file, 'utf8').trim();
    return secret.length >= minimumLength ? secret : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The development secret kept in `file` (made once, readable by its owner only), so a restart without SESSION_SECRET
 * keeps readers signed in: session cookies carry a tag under this secret. Returns undefined when the file can be
 * neither read nor written; the caller then uses a secret of this start alone.
 */
export function keptSecret(file: string): string | undefined {
  const existing = readSecret(file);
  if (existing) return existing;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // 'wx': if another start made it meanwhile, theirs is kept and read below.
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    // Made by another start, or not writable: read what is there, if anything.
  }
  return readSecret(file);
}

/** SESSION_SECRET, else (development) the one kept in DATA_DIR, else one for this start alone. */
export function sessionSecretOf(
  config: Pick<Config, 'sessionSecret' | 'keptSessionSecretFile'>,
  log: FastifyBaseLogger,
): string {
  if (!config.keptSessionSecretFile) return config.sessionSecret;
  const kept = keptSecret(config.keptSessionSecretFile);
  if (kept) return kept;
  log.warn(
    { file: config.keptSessionSecretFile },
    'no session secret could be kept in DATA_DIR: readers will be signed out when the server restarts (set SESSION_SECRET)',
  );
  return config.sessionSecret;
}
