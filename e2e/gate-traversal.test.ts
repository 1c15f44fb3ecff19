import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { test } from './fixtures';

// A small site of our own, with symlinks pointing out of it, so nothing here depends on the real build.
const siteDirectory = mkdtempSync(path.join(tmpdir(), 'acme-site-'));
writeFileSync(path.join(siteDirectory, 'index.html'), '<!doctype html><title>Home</title><p>home page');
writeFileSync(path.join(siteDirectory, '404.html'), '<!doctype html><title>Page Not Found</title>');
symlinkSync('/etc/passwd', path.join(siteDirectory, 'passwd-link'));
symlinkSync('/etc', path.join(siteDirectory, 'etc-link'));
test.override({ serverEnvironment: { SITE_DIR: siteDirectory }, readerEmail: 'crawler@acme.dev' });
afterAll(() => rmSync(siteDirectory, { recursive: true, force: true }));

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

describe('paths that try to leave the site directory', () => {
  test.for([
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
  ])('never serves outside bytes for %s', async (rawPath, { server, sessionCookie }) => {
    const response = await rawGet(server.baseUrl, rawPath, sessionCookie);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toMatch(/root:.*:0:0:/);
  });

  test('still serves the site itself with the same session', async ({ server, sessionCookie }) => {
    const response = await rawGet(server.baseUrl, '/', sessionCookie);
    expect(response.status).toBe(200);
    expect(response.body).toContain('home page');
  });
});
