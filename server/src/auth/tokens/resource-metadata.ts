import fp from 'fastify-plugin';
import { handbookScope } from '../oauth/oauth-tokens.js';

/** Where RFC 9728's metadata of the MCP endpoint lives; the 401 of a bearer request points here. */
export function resourceMetadataUrlOf(publicUrl: URL): string {
  return new URL('/.well-known/oauth-protected-resource', publicUrl).href;
}

/** The protected resource a token is for: the MCP endpoint (its metadata's `resource`). */
export function protectedResourceOf(publicUrl: URL): string {
  return new URL('/mcp', publicUrl).href;
}

/** The handbook's own OAuth authorization server (auth/oauth/): its issuer is the site's origin. */
export function authorizationServerOf(publicUrl: URL): string {
  return publicUrl.origin;
}

/**
 * RFC 9728 protected-resource metadata, public like any discovery document: what the resource is, that a bearer token
 * goes in the header (never the query), and the authorization server an MCP client gets one from (a personal access
 * token made in the handbook works as well). Served at the well-known address and at its `/mcp` suffixed form, the
 * two places MCP clients look.
 */
export const resourceMetadataRoutes = fp(
  async (app) => {
    const { publicUrl } = app.config;
    const document = {
      resource: protectedResourceOf(publicUrl),
      authorization_servers: [authorizationServerOf(publicUrl)],
      scopes_supported: [handbookScope],
      bearer_methods_supported: ['header'],
      resource_name: 'Acme Developer Handbook',
      resource_documentation: new URL('/access-tokens', publicUrl).href,
    };
    for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      app.get(url, async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(document));
    }
  },
  { name: 'resource-metadata-routes', fastify: '5.x', encapsulate: true, decorators: { fastify: ['config'] } },
);
