import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { personalTokenPrefix } from '@acme/contract';

/**
 * A personal access token is `acme_pat_` + its id (16 characters) + its secret (43): the prefix lets secret scanners
 * and people recognise it, the id finds its row, and only a SHA-256 hash of the 256-bit secret is stored. A fast hash
 * is enough for a secret this long (no dictionary to try); the comparison takes the same time however much matches.
 * Access granted through OAuth has tokens of the same shape under prefixes of its own (auth/oauth/oauth-tokens.ts).
 */
const idLength = 16;
const secretLength = 43;

export type MintedToken = { id: string; token: string; secretHash: string };

export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new token under `prefix` for the row `id` (a new id unless given), and the hash to store of its secret. */
export function mintToken(prefix: string, id = randomBytes(12).toString('base64url')): MintedToken {
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${prefix}${id}${secret}`, secretHash: hashTokenSecret(secret) };
}

export function mintPersonalToken(): MintedToken {
  return mintToken(personalTokenPrefix);
}

/** The id and secret of a string shaped like one of our tokens under `prefix`, else undefined (nothing is looked up). */
export function parseToken(prefix: string, token: string): { id: string; secret: string } | undefined {
  if (token.length !== prefix.length + idLength + secretLength || !token.startsWith(prefix)) return undefined;
  const rest = token.slice(prefix.length);
  if (!/^[\w-]+$/.test(rest)) return undefined;
  return { id: rest.slice(0, idLength), secret: rest.slice(idLength) };
}

export function parsePersonalToken(token: string): { id: string; secret: string } | undefined {
  return parseToken(personalTokenPrefix, token);
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashTokenSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
