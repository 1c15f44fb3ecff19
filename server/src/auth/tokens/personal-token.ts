import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { personalTokenPrefix } from '@acme/contract';

/**
 * A personal access token is `acme_pat_` + its id (16 characters) + its secret (43): the prefix lets secret scanners
 * and people recognise it, the id finds its row, and only a SHA-256 hash of the 256-bit secret is stored. A fast hash
 * is enough for a secret this long (no dictionary to try); the comparison takes the same time however much matches.
 */
const idLength = 16;
const secretLength = 43;
export const personalTokenLength = personalTokenPrefix.length + idLength + secretLength;
const tokenShape = new RegExp(`^${personalTokenPrefix}[\\w-]{${idLength + secretLength}}$`);

export type MintedToken = { id: string; token: string; secretHash: string };

export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function mintPersonalToken(): MintedToken {
  const id = randomBytes(12).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${personalTokenPrefix}${id}${secret}`, secretHash: hashTokenSecret(secret) };
}

/** The id and secret of a string shaped like one of our tokens, else undefined (nothing is looked up for it). */
export function parsePersonalToken(token: string): { id: string; secret: string } | undefined {
  if (token.length !== personalTokenLength || !tokenShape.test(token)) return undefined;
  const rest = token.slice(personalTokenPrefix.length);
  return { id: rest.slice(0, idLength), secret: rest.slice(idLength) };
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashTokenSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
