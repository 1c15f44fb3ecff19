import { randomBytes } from 'node:crypto';
import { printableName } from '@acme/contract';
import { z } from 'zod';
import { OAuthError } from './oauth-error.js';
import { isAcceptableRedirectUri } from './redirect-uri.js';

export const maxRegistrationBytes = 8 * 1024;
export const maxClientNameCharacters = 100;
const maxRedirectUris = 5;

/**
 * What we read of an RFC 7591 registration request; any other field is ignored and not echoed back. Every client is
 * registered public (no secret: PKCE binds the code to the client that asked for it) with the code and refresh
 * grants, whatever it asked for, which RFC 7591 section 3.2.1 allows; the answer says so.
 */
const registrationSchema = z.object({
  redirect_uris: z.array(z.string()).min(1).max(maxRedirectUris),
  // Printable, as personal token names are: a name with control characters or other invisible tricks is not shown.
  client_name: printableName('client_name').trim().min(1).max(maxClientNameCharacters).optional(),
});

export type ClientRegistration = { id: string; name: string; redirectUris: string[] };

/** Checks a registration request; returns the client its client_id will carry or throws the RFC 7591 error to answer. */
export function clientFromRegistration(body: unknown): ClientRegistration {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the request';
    throw new OAuthError('invalid_client_metadata', `${where}: ${issue?.message ?? 'not a registration request'}`);
  }
  const { redirect_uris: redirectUris, client_name: name } = parsed.data;
  const refused = redirectUris.find((uri) => !isAcceptableRedirectUri(uri));
  if (refused !== undefined) {
    throw new OAuthError(
      'invalid_redirect_uri',
      "Each redirect URI must be https, http to localhost, 127.0.0.1 or [::1], or an application scheme (a reversed domain such as com.example.agent:/callback, or a known coding agent's), at most 500 characters, without a fragment, spaces or control characters.",
    );
  }
  return { id: randomBytes(16).toString('base64url'), name: name ?? 'An unnamed application', redirectUris };
}

/** The registration's answer (RFC 7591 section 3.2.1): what was registered, as we will hold the client to it. */
export function registrationResponse(clientId: string, client: ClientRegistration, issuedAt: Date) {
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}
