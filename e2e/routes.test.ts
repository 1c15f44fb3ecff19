import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { listSiteFiles, siteBuildDirectory } from './harness';
import { maintainerRoutes, requestPathOf, specDocRoutes, specOtherRoutes, specTagRoutes } from './spec-routes';

/** The route each built HTML page answers at, as Docusaurus lays them out. */
function builtRoutes(): string[] {
  return [...listSiteFiles(siteBuildDirectory)]
    .filter((file) => file.endsWith('.html') && file !== '/404.html')
    .map((file) => file.replace(/index\.html$/, ''));
}

describe('the built site', () => {
  test('has exactly the routes of the spec, and no others', () => {
    const withoutTrailingSlash = (route: string) => (route === '/' ? route : route.replace(/\/$/, ''));
    const expected = [...specDocRoutes, ...specTagRoutes, ...specOtherRoutes, ...maintainerRoutes]
      .map(withoutTrailingSlash)
      .sort();
    expect(builtRoutes().map(withoutTrailingSlash).sort()).toEqual(expected);
  });

  test.for([...specDocRoutes, ...specTagRoutes, ...specOtherRoutes])(
    'serves %s',
    async (route, { server, sessionCookie }) => {
      const headers = { cookie: sessionCookie };
      const response = await server.app.inject({ method: 'GET', url: requestPathOf(route), headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    },
  );

  test('links every doc page at the exact spec spelling (trailing slash or not)', async ({ server, sessionCookie }) => {
    const response = await server.app.inject({ method: 'GET', url: '/docs/', headers: { cookie: sessionCookie } });
    // Minified HTML quotes an attribute only when it must (a space, for instance).
    const linked = [...response.body.matchAll(/href=(?:"([^"#?]+)"|([^\s>"#?]+))/g)].map((match) =>
      decodeURI(match[1] ?? match[2] ?? ''),
    );
    for (const route of specDocRoutes) expect(linked).toContain(route);
  });

  test('answers an unknown path with the 404 page', async ({ server, sessionCookie }) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/no-such-page',
      headers: { cookie: sessionCookie },
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Page Not Found');
  });

  test.for([
    ['/coding-standard/index.html', '/coding-standard/'],
    ['/backend-dev-rdr.html', '/backend-dev-rdr'],
    // Straight to the page's one address, not through a second redirect.
    ['/backend-dev-rdr/index.html?tab=1', '/backend-dev-rdr?tab=1'],
    ['/cloudflare-tunnel/index.html', '/cloudflare-tunnel'],
    ['/Workshops/shopify-market-sharing-2025.html', '/Workshops/shopify-market-sharing-2025'],
  ])('strips %s to %s', async ([requested, location], { server, sessionCookie }) => {
    const response = await server.app.inject({ method: 'GET', url: requested, headers: { cookie: sessionCookie } });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(location);
  });

  /** The spelling of a route that is not its address: with the slash it lacks, or without the one it has. */
  const otherSpelling = (route: string) => (route.endsWith('/') ? route.slice(0, -1) : `${route}/`);
  const allRoutes = [...specDocRoutes, ...specTagRoutes, ...specOtherRoutes].filter((route) => route !== '/');

  test.for(allRoutes)(
    'answers %s at one address: the other spelling redirects there',
    async (route, { server, sessionCookie }) => {
      const headers = { cookie: sessionCookie };
      const response = await server.app.inject({
        method: 'GET',
        url: `${requestPathOf(otherSpelling(route))}?q=a%20b&x=1`,
        headers,
      });
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(`${requestPathOf(route)}?q=a%20b&x=1`);
      const landed = await server.app.inject({ method: 'GET', url: response.headers.location ?? '', headers });
      expect(landed.statusCode).toBe(200);
    },
  );

  test('redirects /coding-standard and /cloudflare-tunnel/ to the addresses the site links to', async ({
    server,
    sessionCookie,
  }) => {
    const redirects: Array<[string, string]> = [
      ['/coding-standard', '/coding-standard/'],
      ['/cloudflare-tunnel/', '/cloudflare-tunnel'],
      [
        '/Development%20Resources/shopify-auth-managed-migration/',
        '/Development%20Resources/shopify-auth-managed-migration',
      ],
    ];
    for (const [requested, location] of redirects) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await server.app.inject({ method, url: requested, headers: { cookie: sessionCookie } });
        expect(response.statusCode, `${method} ${requested}`).toBe(301);
        expect(response.headers.location, `${method} ${requested}`).toBe(location);
      }
    }
  });

  test('never redirects off the site, nor an asset, an API route or a signed-out reader', async ({
    server,
    sessionCookie,
  }) => {
    const headers = { cookie: sessionCookie };
    for (const url of [
      '//evil.example/',
      '//evil.example/coding-standard',
      '/%2Fevil.example/',
      '//cloudflare-tunnel/',
    ]) {
      const response = await server.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).not.toBe(301);
      expect(response.headers.location, url).toBeUndefined();
    }
    const asset =
      [...listSiteFiles(siteBuildDirectory)].find((file) => /^\/assets\/js\/main\..*\.js$/.test(file)) ?? '';
    expect((await server.app.inject({ method: 'GET', url: asset, headers })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: `${asset}/`, headers })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/me/', headers })).headers.location).toBeUndefined();
    // Signed out, every path is the sign-in page: no redirect tells a stranger which pages exist.
    const signedOut = await server.app.inject({
      method: 'GET',
      url: '/coding-standard',
      headers: { accept: 'text/html' },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  test('downloads no search index: the search box asks the server', async ({ server, sessionCookie }) => {
    const headers = { cookie: sessionCookie };
    const response = await server.app.inject({ method: 'GET', url: '/search-index.json', headers });
    expect(response.statusCode).toBe(404);
  });
});
