import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { siteBuildDirectory } from './harness';

/** A rebuild of the site while the server runs: new chunks are served and new inline scripts allowed, no restart. */

const copy = mkdtempSync(path.join(tmpdir(), 'site-rebuild-'));
// The server starts at the first test, over the copy made here.
beforeAll(() => cpSync(siteBuildDirectory, copy, { recursive: true }));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** GET as the file's signed-in reader, as a browser asks for a page; redirects are not followed. */
const test = base.extend(
  'get',
  async ({ server, sessionCookie }) =>
    (pathname: string) =>
      fetch(`${server.baseUrl}${pathname}`, {
        headers: { cookie: sessionCookie, accept: 'text/html' },
        redirect: 'manual',
      }),
);
test.override({ serverEnvironment: { SITE_DIR: copy }, readerEmail: 'rebuild@acme.dev' });

describe('a site rebuilt while the server runs', () => {
  test('serves the new build and allows its inline scripts after the next check', async ({
    get,
    server,
    sessionCookie,
  }) => {
    expect((await get('/assets/js/rebuilt.1234abcd.js')).status).toBe(404);
    const script = "window.rebuiltAt='now'";
    const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    expect((await get('/faqs/')).headers.get('content-security-policy')).not.toContain(hash);

    writeFileSync(path.join(copy, 'assets/js/rebuilt.1234abcd.js'), 'console.log("rebuilt");');
    const page = path.join(copy, 'faqs/index.html');
    const section = '<h2 id="zanzibar-rotation">Zanzibar rotation</h2><p>Rotate the zanzibar keys every quarter.</p>';
    writeFileSync(
      page,
      readFileSync(page, 'utf8')
        .replace('</head>', `<script>${script}</script></head>`)
        .replace(/(<div class="theme-doc-markdown markdown">)/, `$1${section}`),
    );

    await expect.poll(async () => (await get('/assets/js/rebuilt.1234abcd.js')).status, { timeout: 6000 }).toBe(200);
    expect((await get('/faqs/')).headers.get('content-security-policy')).toContain(hash);
    // The search and Dev Copilot follow: the new build is indexed in the background and swapped in when ready.
    const searchFinds = async () => {
      const response = await fetch(`${server.baseUrl}/api/search?q=zanzibar`, { headers: { cookie: sessionCookie } });
      return ((await response.json()) as { results: Array<{ url: string }> }).results.map((result) => result.url);
    };
    await expect.poll(searchFinds, { timeout: 6000 }).toContain('/faqs/#zanzibar-rotation');
    const answer = await fetch(`${server.baseUrl}/api/askAi`, {
      method: 'POST',
      headers: { cookie: sessionCookie, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'How often do we rotate the zanzibar keys?' }] }],
      }),
    });
    const { sources } = (await answer.json()) as { sources: Array<{ url: string }> };
    expect(sources.map((source) => source.url)).toContain('/faqs/#zanzibar-rotation');
  });

  test('keeps serving the previous build while the new one has no 404 page (half-written)', async ({ get }) => {
    rmSync(path.join(copy, '404.html'));
    const page = path.join(copy, 'koajs/index.html');
    writeFileSync(page, `${readFileSync(page, 'utf8')}\n`);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect((await get('/koajs/')).status).toBe(200);
    expect((await get('/no-such-page')).status).toBe(404);
  });
});
