import { randomBytes } from 'node:crypto';
import { maxTokensPerReader } from '@acme/contract';
import type { Database } from '../../store/database.js';
import { createAuthorizationCode } from '../../store/oauth.js';
import { countLivePersonalTokens } from '../../store/personal-tokens.js';
import type { SessionRow } from '../../store/schema.js';
import { identityOf, readerKeyOf } from '../reader-identity.js';
import { hashTokenSecret } from '../tokens/personal-token.js';
import { type AuthorizationRequest, redirectWith } from './authorization-request.js';
import { authorizationCodeSeconds } from './oauth-tokens.js';

export type ConsentOutcome = { kind: 'redirect'; location: string } | { kind: 'too-many-tokens'; message: string };

/**
 * The reader's answer on the consent page. Deny: `access_denied` back to the client. Allow: a code (only its hash
 * kept, two minutes, once) bound to the client, redirect URI, PKCE challenge, resource and the reader's identity,
 * unless the reader already holds as many tokens as one may; the client is stored with its first code. Every answer
 * carries `state` and our `iss` (RFC 9207).
 */
export async function answerConsent(
  db: Database,
  options: { request: AuthorizationRequest; session: SessionRow; allow: boolean; issuer: string; now: Date },
): Promise<ConsentOutcome> {
  const { request, session, issuer, now } = options;
  const back = (parameters: Record<string, string>) => ({
    kind: 'redirect' as const,
    location: redirectWith(request.redirectUri, { ...parameters, state: request.state, iss: issuer }),
  });
  if (!options.allow) return back({ error: 'access_denied', error_description: 'The reader denied access.' });
  const reader = readerKeyOf(session);
  if ((await countLivePersonalTokens(db, { reader, now })) >= maxTokensPerReader) {
    return {
      kind: 'too-many-tokens',
      message: `You hold ${maxTokensPerReader} access tokens and connected applications, the most one reader may; revoke one on Access tokens first.`,
    };
  }
  const code = randomBytes(32).toString('base64url');
  await createAuthorizationCode(db, {
    client: request.client,
    code: {
      codeHash: hashTokenSecret(code),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      ...identityOf(session),
      expiresAt: new Date(now.getTime() + authorizationCodeSeconds * 1000),
    },
  });
  return back({ code });
}
