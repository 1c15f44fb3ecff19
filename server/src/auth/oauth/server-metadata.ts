import { authorizationServerOf } from '../tokens/resource-metadata.js';
import { handbookScope } from './oauth-tokens.js';

/**
 * RFC 8414 authorization server metadata: where an MCP client registers (RFC 7591), sends the reader to consent and
 * exchanges the code. Public clients only, authorization code with PKCE S256 only, and `iss` in every answer to the
 * redirect URI (RFC 9207) so a client talking to several servers cannot be sent another's code.
 */
export function authorizationServerMetadata(publicUrl: URL) {
  const at = (path: string) => new URL(path, publicUrl).href;
  return {
    issuer: authorizationServerOf(publicUrl),
    authorization_endpoint: at('/oauth/authorize'),
    token_endpoint: at('/oauth/token'),
    registration_endpoint: at('/oauth/register'),
    scopes_supported: [handbookScope],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: false,
    service_documentation: at('/access-tokens'),
  };
}
