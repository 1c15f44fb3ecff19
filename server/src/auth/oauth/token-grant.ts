import { maxTokensPerReader } from '@acme/contract';
import { findCurrentAddress } from '../../store/accounts.js';
import type { Database } from '../../store/database.js';
import { type OAuthClientRow, recordCodeToken, rotateOAuthTokens, takeAuthorizationCode } from '../../store/oauth.js';
import {
  createPersonalTokenWithinLimit,
  deleteOAuthGrants,
  deletePersonalToken,
  findPersonalToken,
} from '../../store/personal-tokens.js';
import type { AccessPolicy } from '../access-policy.js';
import { decideCredential } from '../account-access.js';
import { identityOf } from '../reader-identity.js';
import { hashTokenSecret, parseToken, secretMatches } from '../tokens/personal-token.js';
import { OAuthError } from './oauth-error.js';
import {
  accessTokenSeconds,
  grantLifetimeMs,
  mintGrantTokens,
  refreshTokenPrefix,
  tokenResponse,
  verifierMatches,
} from './oauth-tokens.js';

export type TokenGrantOptions = {
  db: Database;
  /** The client a client_id names, registered (and fresh) or stored (consented to); undefined for any other. */
  findClient: (clientId: string) => Promise<OAuthClientRow | undefined>;
  currentPolicy: () => AccessPolicy;
  resource: string;
  now: Date;
};

type TokenRequest = Record<string, unknown>;

const text = (request: TokenRequest, name: string): string => {
  const value = request[name];
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `${name} is required.`);
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} is given more than once.`);
  return value;
};

/** RFC 8707: a token request may name the resource again; it must be the one the grant is for. */
function checkResource(request: TokenRequest, resource: string) {
  if (request.resource !== undefined && request.resource !== resource) {
    throw new OAuthError('invalid_target', `This server grants access to ${resource} only.`);
  }
}

async function clientOf(request: TokenRequest, options: TokenGrantOptions) {
  const client = await options.findClient(text(request, 'client_id'));
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id: register the application again.');
  return client;
}

/** Refuses a grant whose account the policy refuses, by the address it was made with or by the account's current one. */
function refuseUnlessAllowed(policy: AccessPolicy, grant: Parameters<typeof decideCredential>[1]) {
  if (!decideCredential(policy, grant).allowed) {
    throw new OAuthError('invalid_grant', 'The account this access belongs to may no longer read the handbook.');
  }
}

/**
 * grant_type=authorization_code: the code once, by the client it was issued to, with the same redirect URI and the
 * PKCE verifier of its challenge, for our resource, for a reader the policy still allows. A code presented a second
 * time revokes what it was exchanged for (OAuth 2.1 section 4.1.3). The reader's earlier grant to the same client is
 * replaced, so re-adding an agent does not pile up access.
 */
export async function exchangeAuthorizationCode(request: TokenRequest, options: TokenGrantOptions) {
  const { db, now } = options;
  const client = await clientOf(request, options);
  const codeHash = hashTokenSecret(text(request, 'code'));
  const taken = await takeAuthorizationCode(db, { codeHash, now });
  if (!taken.code) {
    if (taken.reused?.tokenId) await deletePersonalToken(db, { reader: taken.reused.reader, id: taken.reused.tokenId });
    throw new OAuthError('invalid_grant', 'The authorization code is unknown, expired or already used.');
  }
  const code = taken.code;
  if (code.clientId !== client.id || code.expiresAt <= now) {
    throw new OAuthError('invalid_grant', 'The authorization code is unknown, expired or already used.');
  }
  if (code.redirectUri !== text(request, 'redirect_uri')) {
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the one the code was issued for.');
  }
  if (!verifierMatches(text(request, 'code_verifier'), code.codeChallenge)) {
    throw new OAuthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
  }
  checkResource(request, code.resource);
  refuseUnlessAllowed(options.currentPolicy(), { ...code, current: (await findCurrentAddress(db, code)) ?? null });
  const tokens = mintGrantTokens();
  await deleteOAuthGrants(db, { reader: code.reader, clientId: client.id });
  const granted = await createPersonalTokenWithinLimit(
    db,
    {
      id: tokens.id,
      ...identityOf(code),
      name: `${client.name} (connected with OAuth)`,
      secretHash: tokens.access.secretHash,
      expiresAt: new Date(now.getTime() + grantLifetimeMs),
      clientId: client.id,
      refreshHash: tokens.refresh.secretHash,
      accessExpiresAt: new Date(now.getTime() + accessTokenSeconds * 1000),
    },
    { max: maxTokensPerReader, now },
  );
  // The consent checked the limit; codes of several clients exchanged at once may still reach it.
  if (typeof granted === 'string') {
    throw new OAuthError(
      'invalid_grant',
      `The reader holds ${maxTokensPerReader} access tokens and connected applications, the most one may.`,
    );
  }
  if (!(await recordCodeToken(db, { codeHash, tokenId: tokens.id }))) {
    // The code was presented again while this exchange ran: what it gave is revoked, as for a later replay.
    await deletePersonalToken(db, { reader: code.reader, id: tokens.id });
    throw new OAuthError('invalid_grant', 'The authorization code was presented twice; this access is revoked.');
  }
  return tokenResponse(tokens);
}

/**
 * grant_type=refresh_token: the grant's current refresh token, by its client, while the grant lasts and its reader is
 * still allowed; both tokens are replaced, so a refresh token works once, and the one replaced, presented again,
 * revokes the grant.
 */
export async function refreshGrant(request: TokenRequest, options: TokenGrantOptions) {
  const { db, now } = options;
  const client = await clientOf(request, options);
  const parsed = parseToken(refreshTokenPrefix, text(request, 'refresh_token'));
  const grant = parsed && (await findPersonalToken(db, { id: parsed.id }));
  if (!parsed || !grant?.refreshHash || grant.clientId !== client.id || grant.expiresAt <= now) {
    throw new OAuthError('invalid_grant', 'The refresh token is unknown, expired, revoked or already used.');
  }
  if (!secretMatches(parsed.secret, grant.refreshHash)) {
    // The refresh token this grant's last one replaced: the agent or someone who copied it is replaying it. The grant
    // ends; the reader adds the agent again (RFC 9700 4.14.2). Any other secret is only refused: the grant's id is in
    // every token it gave, so a made-up secret must not be a way to end someone's access.
    if (grant.previousRefreshHash && secretMatches(parsed.secret, grant.previousRefreshHash)) {
      await deletePersonalToken(db, { reader: grant.reader, id: grant.id });
      throw new OAuthError('invalid_grant', 'The refresh token was already used; this access is revoked.');
    }
    throw new OAuthError('invalid_grant', 'The refresh token is unknown, expired, revoked or already used.');
  }
  checkResource(request, options.resource);
  refuseUnlessAllowed(options.currentPolicy(), grant);
  const tokens = mintGrantTokens(grant.id);
  const rotated = await rotateOAuthTokens(db, {
    id: grant.id,
    previousRefreshHash: grant.refreshHash,
    secretHash: tokens.access.secretHash,
    refreshHash: tokens.refresh.secretHash,
    accessExpiresAt: new Date(now.getTime() + accessTokenSeconds * 1000),
  });
  if (!rotated) throw new OAuthError('invalid_grant', 'The refresh token was already used.');
  return tokenResponse(tokens);
}
