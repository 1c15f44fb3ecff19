import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { listSiteFiles, siteBuildDirectory } from './harness';
import { requestPathOf, specDocRoutes, specOtherRoutes, specTagRoutes } from './spec-routes';

/** The route each built HTML page answers at, as Docusaurus lays them out. */
function builtRoutes(): string[] {
  return [...listSiteFiles(siteBuildDirectory)]
    .filter((file) => file.endsWith('.html') && file !== '/404.html')
    .map((file) => file.replace(/index\.html$/, ''));
}

describe('the built site', () => {
  test('has exactly the routes of the spec, and no others', () => {
    const withoutTrailingSlash = (route: string) => (route === '/' ? route : route.replace(/\/$/, ''));
    const expected = [...specDocRoutes, ...specTagRoutes, ...specOtherRoutes].map(withoutTrailingSlash).sort();
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
    ['/backend-dev-rdr/index.html?tab=1', '/backend-dev-rdr/?tab=1'],
    ['/Workshops/shopify-market-sharing-2025.html', '/Workshops/shopify-market-sharing-2025'],
  ])('strips %s to %s', async ([requested, location], { server, sessionCookie }) => {
    const response = await server.app.inject({ method: 'GET', url: requested, headers: { cookie: sessionCookie } });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(location);
  });

  test('downloads no search index: the search box asks the server', async ({ server, sessionCookie }) => {
    const headers = { cookie: sessionCookie };
    const response = await server.app.inject({ method: 'GET', url: '/search-index.json', headers });
    expect(response.statusCode).toBe(404);
  });
});
