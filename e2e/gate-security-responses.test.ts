import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { fetchPath, html, signedInSession, withSession } from './gate-security';
import { listSiteFiles, siteBuildDirectory } from './harness';

test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

describe('responses', () => {
  let sessionId: string;
  const hashedScript = [...listSiteFiles(siteBuildDirectory)].find(
    (file) =>
      /^\/assets\/js\/main\.[0-9a-f]+\.js$/.test(file) &&
      existsSync(path.join(siteBuildDirectory, `${file}.br`)) &&
      existsSync(path.join(siteBuildDirectory, `${file}.gz`)),
  );

  test.beforeAll(async ({ server }) => {
    sessionId = await signedInSession(server.baseUrl, 'reader@acme.dev');
  });

  test('found a hashed script with compressed twins in the build', () => {
    expect(hashedScript).toBeDefined();
  });

  test.for<[string]>([['/'], ['/faqs/'], ['/no-such-page'], ['/search?q=ttl']])(
    'unauthenticatedNavigationGetsOnlyTheGate: %s',
    async ([pathname], { server }) => {
      const response = await fetchPath(server.baseUrl, pathname, html);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.text();
      expect(body).toContain('Login with Google');
      expect(body).toContain('<strong>@acme.dev</strong> or <strong>@acme.io</strong>');
      expect(body).not.toContain('Firestore');
      expect(body).not.toContain('/assets/js/');
      expect(body).not.toContain('/assets/css/');
    },
  );

  test.for<[string, string, Record<string, string>]>([
    ['jsonRequestGetsJson401', '/faqs/', { accept: 'application/json' }],
    ['scriptRequestGetsJson401', hashedScript ?? '', {}],
    ['searchApiRequestGetsJson401', '/api/search?q=firestore', { accept: '*/*' }],
    ['searchApiJsonRequestGetsJson401', '/api/search?q=firestore', { accept: 'application/json' }],
  ])('%s', async ([_name, pathname, headers], { server }) => {
    const response = await fetchPath(server.baseUrl, pathname, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized:session' } });
  });

  test('markupInTheRequestedPathIsNotReflectedIntoTheGate', async ({ server }) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/faqs/?q="><script>alert(1)</script>',
      headers: html,
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).not.toContain('"><');
    expect(response.body).toContain('href="/auth/login?next=%2Ffaqs%2F%3Fq%3D%2522%253E%253Cscript%253E');
  });

  test('aRequestTrickledInIsCutOffAfterFiveMinutes', ({ server }) => {
    // Node's own limits, which Fastify's defaults would turn off: headers within a minute, the whole request in five.
    expect(server.app.server.requestTimeout).toBe(300_000);
    expect(server.app.server.headersTimeout).toBeLessThanOrEqual(60_000);
  });

  test('healthCheckAnswersWithoutSession', async ({ server }) => {
    const response = await fetchPath(server.baseUrl, '/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('authenticatedPagesMayOnlySitInThePrivateCacheAndAreRevalidated', async ({ server }) => {
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  test('hashedAssetsAreImmutableInThePrivateCache', async ({ server }) => {
    const response = await fetchPath(server.baseUrl, hashedScript ?? '', withSession(sessionId));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  test.for<[string, string]>([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
  ])('servesPrecompressedFile for Accept-Encoding %j as %s', async ([acceptEncoding, encoding], { server }) => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(
        server.baseUrl,
        pathname,
        withSession(sessionId, { 'accept-encoding': acceptEncoding }),
      );
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-encoding'), pathname).toBe(encoding);
      expect((await response.text()).length, pathname).toBeGreaterThan(0);
    }
  });

  // fetch() adds `cache-control: no-cache` to any request with If-None-Match (Fetch standard), which rightly
  // defeats the 304; a browser revalidating its own cache does not, so these requests go in through inject.
  test('answersConditionalRequestWith304', async ({ server }) => {
    const headers = withSession(sessionId, { ...html, 'accept-encoding': 'br' });
    const first = await server.app.inject({ method: 'GET', url: '/faqs/', headers });
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const second = await server.app.inject({
      method: 'GET',
      url: '/faqs/',
      headers: { ...headers, 'if-none-match': String(etag) },
    });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  test('conditionalRequestWithoutSessionStillGetsTheGate', async ({ server }) => {
    const headers = { ...html, 'accept-encoding': 'br' };
    const first = await server.app.inject({ method: 'GET', url: '/faqs/', headers: withSession(sessionId, headers) });
    const response = await server.app.inject({
      method: 'GET',
      url: '/faqs/',
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('Login with Google');
  });

  // Regression: one URL is served as br, gzip or identity depending on Accept-Encoding, so it must say it varies
  // (@fastify/static does not add the header itself).
  test('compressedResponsesSayTheyVaryOnAcceptEncoding', async ({ server }) => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(server.baseUrl, pathname, withSession(sessionId, { 'accept-encoding': 'br' }));
      expect(response.headers.get('content-encoding'), pathname).toBe('br');
      expect(response.headers.get('vary') ?? '', pathname).toMatch(/accept-encoding/i);
    }
  });

  test.for<[string, boolean]>([
    ['gate', false],
    ['site', true],
  ])('securityHeadersOn%s', async ([_name, signedIn], { server }) => {
    const response = await fetchPath(server.baseUrl, '/', signedIn ? withSession(sessionId, html) : html);
    expect(response.status).toBe(signedIn ? 200 : 401);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    // The older header says the same as the CSP: no framing at all, not even by our own origin.
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  test.for<[string, boolean, number]>([
    ['headWithoutSessionIsGated', false, 401],
    ['headWithSessionIsServed', true, 200],
  ])('%s', async ([_name, signedIn, status], { server }) => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(
        server.baseUrl,
        pathname,
        signedIn ? withSession(sessionId, html) : html,
        'HEAD',
      );
      expect(response.status, pathname).toBe(status);
      expect(await response.text(), pathname).toBe('');
    }
  });
});
