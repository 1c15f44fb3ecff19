import { createHash } from 'node:crypto';
import { defaultTokenLifetimeDays } from '@acme/contract';
import { mintToken } from '../tokens/personal-token.js';

/**
 * Access granted to a coding agent through OAuth: an access token (`acme_oat_`, an hour) and a refresh token
 * (`acme_ort_`, replaced at every use), both naming the grant's row and stored only as hashes. The grant ends after
 * the personal tokens' default lifetime; then the reader is asked again.
 */
export const accessTokenPrefix = 'acme_oat_';
export const refreshTokenPrefix = 'acme_ort_';
export const accessTokenSeconds = 3600;
export const grantLifetimeMs = defaultTokenLifetimeDays * 24 * 60 * 60 * 1000;
export const authorizationCodeSeconds = 120;
/** The one scope: read the handbook as the reader (search, pages, Dev Copilot), nothing that changes anything. */
export const handbookScope = 'handbook:read';

export function mintGrantTokens(grantId?: string) {
  const access = mintToken(accessTokenPrefix, grantId);
  const refresh = mintToken(refreshTokenPrefix, access.id);
  return { id: access.id, access, refresh };
}

/** The token endpoint's answer (RFC 6749 section 5.1). */
export function tokenResponse(tokens: ReturnType<typeof mintGrantTokens>) {
  return {
    access_token: tokens.access.token,
    token_type: 'Bearer',
    expires_in: accessTokenSeconds,
    refresh_token: tokens.refresh.token,
    scope: handbookScope,
  };
}

/** PKCE S256 (RFC 7636): the verifier's SHA-256, base64url, must be the challenge sent with the authorization. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
