import type { FastifyReply } from 'fastify';

/** The error codes of RFC 6749 (5.2, 4.1.2.1), RFC 7591 (3.2.2) and RFC 8707 (invalid_target) that we answer with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** 400 but for an unknown client at the token endpoint (401) and the registration limit (429). */
    readonly status = code === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** The JSON error body of RFC 6749 section 5.2; never cached. */
export function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send({ error: error.code, error_description: error.description });
}
