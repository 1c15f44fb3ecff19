import type { OAuthClientRow } from '../../store/oauth.js';
import { OAuthError } from './oauth-error.js';

/** An authorization request that names a registered client and one of its redirect URIs exactly. */
export type AuthorizationRequest = {
  client: OAuthClientRow;
  /** The client_id as the application sent it: it carries the registration, where `client.id` is the stored row's. */
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  resource: string;
};

/**
 * A request that is not valid is shown to the reader on a page of ours, never redirected to the client, even when its
 * client and redirect URI check out: anyone may register a client and its redirect URI, and a link to a malformed
 * request would make the handbook's address send a reader there (RFC 9700 4.11.2 lets the server decline; RFC 6749
 * section 4.1.2.1 forbids it without a trusted URI). Only the reader's own Allow or Deny goes back to the application.
 */
export type CheckedAuthorization =
  | { kind: 'valid'; request: AuthorizationRequest }
  | { kind: 'refused'; message: string };

/** What the reader reads when the client is not (or no longer) registered, or its id is not one we issued. */
export const unknownClientMessage =
  'The application is not registered here (unknown client_id). Add the handbook to it again.';

const maxStateCharacters = 500;
const maxScopeCharacters = 200;
const codeChallengePattern = /^[A-Za-z0-9\-_]{43}$/;

/** The parameter's one value; a repeated parameter is an invalid request (RFC 6749 section 3.1). */
function single(parameters: Record<string, unknown>, name: string): string | undefined | OAuthError {
  const value = parameters[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return new OAuthError('invalid_request', `${name} is given more than once.`);
  return value;
}

/**
 * Checks an authorization request's parameters (from the query, or the consent form that repeats them): the client
 * and redirect URI first, then response type, PKCE (S256 only), the resource (RFC 8707: ours, `resource`) and state.
 */
export async function checkAuthorizationRequest(
  parameters: Record<string, unknown>,
  options: { findClient: (id: string) => Promise<OAuthClientRow | undefined>; resource: string },
): Promise<CheckedAuthorization> {
  const clientId = single(parameters, 'client_id');
  const redirectUri = single(parameters, 'redirect_uri');
  if (typeof clientId !== 'string') {
    return { kind: 'refused', message: 'The application did not say which registered client it is (client_id).' };
  }
  const client = await options.findClient(clientId);
  if (!client) return { kind: 'refused', message: unknownClientMessage };
  if (typeof redirectUri !== 'string' || !client.redirectUris.includes(redirectUri)) {
    return {
      kind: 'refused',
      message: 'The address to return to (redirect_uri) is not one the application registered.',
    };
  }
  const state = single(parameters, 'state');
  const refuse = (error: OAuthError): CheckedAuthorization => ({
    kind: 'refused',
    message: `${error.description} (${error.code})`,
  });
  if (state instanceof OAuthError) return refuse(state);
  if (state !== undefined && state.length > maxStateCharacters) {
    return refuse(new OAuthError('invalid_request', `state is at most ${maxStateCharacters} characters.`));
  }
  const responseType = single(parameters, 'response_type');
  if (responseType instanceof OAuthError) return refuse(responseType);
  if (responseType !== 'code') {
    return refuse(new OAuthError('unsupported_response_type', 'Only response_type=code is supported.'));
  }
  const challenge = single(parameters, 'code_challenge');
  const method = single(parameters, 'code_challenge_method');
  if (typeof challenge !== 'string' || !codeChallengePattern.test(challenge) || method !== 'S256') {
    return refuse(
      new OAuthError(
        'invalid_request',
        'PKCE is required: code_challenge (S256, 43 characters) and code_challenge_method=S256.',
      ),
    );
  }
  const resource = single(parameters, 'resource');
  if (resource instanceof OAuthError) return refuse(resource);
  if (resource !== undefined && resource !== options.resource) {
    return refuse(new OAuthError('invalid_target', `This server grants access to ${options.resource} only.`));
  }
  const scope = single(parameters, 'scope');
  if (scope instanceof OAuthError || (scope !== undefined && scope.length > maxScopeCharacters)) {
    return refuse(new OAuthError('invalid_scope', 'The scope is malformed.'));
  }
  return {
    kind: 'valid',
    request: { client, clientId, redirectUri, codeChallenge: challenge, state, resource: options.resource },
  };
}

/** The client's redirect URI with our answer's parameters added to its own query (RFC 6749 section 4.1.2). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}
