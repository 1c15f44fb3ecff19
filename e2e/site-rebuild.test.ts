import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// The polls wait for the follower's next check and a new snapshot, which a loaded machine makes slowly; what they
// prove is that it comes, and the third test that no request fails meanwhile.
describe('a site rebuilt while the server runs', { timeout: 60_000 }, () => {
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

    await expect.poll(async () => (await get('/assets/js/rebuilt.1234abcd.js')).status, { timeout: 20_000 }).toBe(200);
    expect((await get('/faqs/')).headers.get('content-security-policy')).toContain(hash);
    // The search and Dev Copilot follow: the new build is indexed in the background and swapped in when ready.
    const searchFinds = async () => {
      const response = await fetch(`${server.baseUrl}/api/search?q=zanzibar`, { headers: { cookie: sessionCookie } });
      return ((await response.json()) as { results: Array<{ url: string }> }).results.map((result) => result.url);
    };
    await expect.poll(searchFinds, { timeout: 20_000 }).toContain('/faqs/#zanzibar-rotation');
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

  test('answers every request while the build is deleted and written anew, each page whole from one build', async ({
    get,
  }) => {
    cpSync(path.join(siteBuildDirectory, '404.html'), path.join(copy, '404.html'));
    const marker = '<!-- written by the second build -->';
    const before = await (await get('/koajs/')).text();
    const mainScript = readdirSync(path.join(copy, 'assets/js')).find((file) => /^main\..*\.js$/.test(file));
    let loading = true;
    const statuses: number[] = [];
    const pages: string[] = [];
    const readers = Array.from({ length: 4 }, async (_unused, reader) => {
      while (loading) {
        const response = await get(reader % 2 === 0 ? '/koajs/' : `/assets/js/${mainScript}`);
        statuses.push(response.status);
        const body = await response.text();
        if (reader % 2 === 0) pages.push(body);
      }
    });
    // As Docusaurus does: the whole directory goes, then the new build is written file by file, its 404 page last.
    rmSync(copy, { recursive: true });
    cpSync(siteBuildDirectory, copy, { recursive: true, filter: (source) => !source.endsWith('404.html') });
    for (const twin of ['koajs/index.html.br', 'koajs/index.html.gz']) rmSync(path.join(copy, twin));
    const page = path.join(copy, 'koajs/index.html');
    const after = readFileSync(page, 'utf8').replace('</body>', `${marker}</body>`);
    writeFileSync(page, after);
    cpSync(path.join(siteBuildDirectory, '404.html'), path.join(copy, '404.html'));
    await expect
      .poll(async () => (await (await get('/koajs/')).text()).includes(marker), { timeout: 20_000 })
      .toBe(true);
    loading = false;
    await Promise.all(readers);

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((body) => body !== before && body !== after)).toEqual([]);
    expect(pages).toContain(before);
  });
});
