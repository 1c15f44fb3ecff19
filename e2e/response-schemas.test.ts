import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

const oauthShapes = 'OAuth, in the shapes of its RFC (metadata, registration, tokens and their errors)';

/**
 * The routes that are not JSON APIs of ours, each with why it has no response schema. Every other route of the server
 * declares the shapes it answers with, which the zod type provider serialises with: a new route fails this test
 * until it has them or is listed here.
 */
const notJsonApis: Record<string, string> = {
  '/*': "the site's pages and files",
  '/insights': "the maintainers' insights page (HTML)",
  '/insights/': "the maintainers' insights page (HTML)",
  '/insights/*': "the maintainers' insights page (HTML)",
  '/insights.html': "the maintainers' insights page (HTML)",
  '/auth/login': 'a redirect to the identity provider, or the sign-in page (HTML)',
  '/auth/callback': "the identity provider's redirect back: a redirect, or the sign-in page (HTML)",
  '/auth/assets/page.css': "the sign-in page's stylesheet",
  '/auth/assets/logo.svg': "the sign-in page's logo",
  '/dev-idp': "the development identity provider (oidc-provider): OpenID Connect's own shapes and pages",
  '/dev-idp/*': "the development identity provider (oidc-provider): OpenID Connect's own shapes and pages",
  '/dev-idp/interaction/:uid': "the development identity provider's sign-in form (HTML)",
  '/api/turns': "a turn's answer is an AI SDK UI message stream (server-sent events), not one JSON body",
  '/mcp': 'MCP: JSON-RPC over streamable HTTP, with its own error object',
  '/oauth/authorize': 'the consent page (HTML) and its redirects back to the coding agent',
  '/oauth/register': oauthShapes,
  '/oauth/token': oauthShapes,
  '/.well-known/oauth-authorization-server': oauthShapes,
  '/.well-known/oauth-protected-resource': oauthShapes,
  '/.well-known/oauth-protected-resource/mcp': oauthShapes,
};

/** Probes answer their own small shapes (a 503 of /readyz carries its checks), not the registry's refusals. */
const probes = new Set(['/healthz', '/readyz']);

type Added = { method: string; url: string; statuses: string[] | undefined };

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);

describe("every JSON route's response schema", () => {
  const added: Added[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const onRoute = (route: RouteOptions) => {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      const statuses = response && Object.keys(response);
      for (const method of methodsOf(route)) added.push({ method, url: route.url, statuses });
    };
    server = await startServer({}, { onRoute });
  });
  afterAll(() => server?.close());

  const jsonRoutes = () => added.filter(({ url }) => !(url in notJsonApis));

  it('is declared by each route that is not listed as something else', () => {
    // Threads, messages, askAi, search, insights, tokens, me, sign-out and the probes, with their HEADs.
    expect(jsonRoutes().length).toBeGreaterThanOrEqual(27);
    const missing = jsonRoutes().filter(({ statuses }) => statuses === undefined);
    expect(missing.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });

  it("names the success's shape (or a 204's lack of one) and the registry's error body", () => {
    const incomplete = jsonRoutes().filter(
      ({ url, statuses = [] }) =>
        !statuses.some((status) => /^2\d\d$/.test(status)) || (!probes.has(url) && !statuses.includes('4xx')),
    );
    expect(incomplete.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });

  it('lists as something else only routes the server has, and none with a schema', () => {
    const urls = new Set(added.map(({ url }) => url));
    expect(Object.keys(notJsonApis).filter((url) => !urls.has(url))).toEqual([]);
    const listedWithSchema = added.filter(({ url, statuses }) => url in notJsonApis && statuses !== undefined);
    expect(listedWithSchema.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });
});
