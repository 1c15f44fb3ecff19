import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSiteFiles } from '../server/src/gate/site-files.js';
import { siteBuildDirectory, startServer, type TestServer } from './harness';
import { signIn } from './sign-in';

/** Sends the path exactly as written: fetch and URL would normalise dot segments and backslashes first. */
function rawGet(baseUrl: string, rawPath: string, cookie?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname, port, path: rawPath, method: 'GET', headers: cookie ? { cookie } : {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function sessionCookie(server: TestServer) {
  const { jar } = await signIn(server.baseUrl, { email: 'crawler@acme.dev' });
  return `acme_session=${jar.get('acme_session')}`;
}

describe('every file of the built site', () => {
  let server: TestServer;
  let cookie: string;
  const files = [...listSiteFiles(siteBuildDirectory)];

  beforeAll(async () => {
    server = await startServer();
    cookie = await sessionCookie(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is a real crawl of the build (HTML, chunks, 404 page, images)', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const expected of ['/404.html', '/search/index.html', '/img/logo.svg']) {
      expect(files).toContain(expected);
    }
    expect(files.some((file) => /^\/assets\/js\/.+\.js$/.test(file))).toBe(true);
    expect(files.some((file) => /^\/assets\/css\/.+\.css$/.test(file))).toBe(true);
  });

  it('gives an unauthenticated GET and HEAD no byte of any file', async () => {
    for (const file of files) {
      const url = encodeURI(file);
      const get = await server.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(get.statusCode, file).toBe(401);
      expect(JSON.parse(get.body).error.code, file).toBe('unauthorized:session');
      const head = await server.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, file).toBe(401);
      expect(head.body, file).toBe('');
    }
  });

  it('serves every file, byte for byte, to an allowed session', async () => {
    for (const file of files) {
      // Pages are asked for by their route (their .html names redirect there); the 404 page answers unknown paths.
      const url = file === '/404.html' ? '/no-such-page' : encodeURI(file.replace(/\/index\.html$/, '/'));
      const response = await server.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip' } });
      expect(response.statusCode, file).toBe(file === '/404.html' ? 404 : 200);
      const body =
        response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      expect(body.equals(readFileSync(path.join(siteBuildDirectory, file))), file).toBe(true);
    }
  });
});

describe('paths that try to leave the site directory', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    // A small site of our own, with symlinks pointing out of it, so nothing here depends on the real build.
    const siteDirectory = mkdtempSync(path.join(tmpdir(), 'acme-site-'));
    writeFileSync(path.join(siteDirectory, 'index.html'), '<!doctype html><title>Home</title><p>home page');
    writeFileSync(path.join(siteDirectory, '404.html'), '<!doctype html><title>Page Not Found</title>');
    symlinkSync('/etc/passwd', path.join(siteDirectory, 'passwd-link'));
    symlinkSync('/etc', path.join(siteDirectory, 'etc-link'));
    server = await startServer({ SITE_DIR: siteDirectory });
    cookie = await sessionCookie(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/..%5c..%5c..%5cetc%5cpasswd',
    '/..\\..\\..\\etc\\passwd',
    '/%252e%252e/%252e%252e/etc/passwd',
    '/.%2e/.%2e/.%2e/etc/passwd',
    '/index.html%00/../../../etc/passwd',
    '//etc/passwd',
    '/passwd-link',
    '/etc-link/passwd',
    '/etc-link/hostname',
  ])('never serves outside bytes for %s', async (rawPath) => {
    const response = await rawGet(server.baseUrl, rawPath, cookie);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toMatch(/root:.*:0:0:/);
  });

  it('still serves the site itself with the same session', async () => {
    const response = await rawGet(server.baseUrl, '/', cookie);
    expect(response.status).toBe(200);
    expect(response.body).toContain('home page');
  });
});
