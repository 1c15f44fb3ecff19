import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { tokensApi } from './tokens-api';

/**
 * A doc page whose address ends in a segment with a dot (`/setup/node.js`, `/guides/v2.1/`), as Docusaurus writes it
 * (a folder with its index.html) and the Markdown plugin its twin (`/setup/node.js.md`): a token at the page's address
 * reads its Markdown, as at any other page, while the build's own scripts stay the browser's.
 */
const site = mkdtempSync(path.join(tmpdir(), 'dotted-pages-'));
const write = (relative: string, text: string) => {
  mkdirSync(path.dirname(path.join(site, relative)), { recursive: true });
  writeFileSync(path.join(site, relative), text);
};
const page = (canonical: string, title: string) =>
  `<!doctype html><html><head><title>${title} | Handbook</title>` +
  `<link rel="canonical" href="http://localhost:3000${canonical}"></head><body><article>` +
  `<div class="theme-doc-markdown markdown"><header><h1>${title}</h1></header><p>About ${title}.</p></div>` +
  '</article></body></html>';
write('404.html', '<!doctype html><title>Page Not Found</title>');
write('setup/node.js/index.html', page('/setup/node.js', 'Node.js'));
write('setup/node.js.md', '# Node.js\n\nAbout Node.js.\n');
write('guides/v2.1/index.html', page('/guides/v2.1/', 'Guide 2.1'));
write('guides/v2.1.md', '# Guide 2.1\n\nAbout Guide 2.1.\n');
write('assets/js/main.abc.js', 'console.log("main")');
afterAll(() => rmSync(site, { recursive: true, force: true }));

const test = base.extend('token', { scope: 'file' }, async ({ server, sessionCookie }) => {
  const created = await tokensApi(server.baseUrl, sessionCookie).create('dotted pages');
  return created.token;
});
test.override({ serverEnvironment: { SITE_DIR: site }, readerEmail: 'dotted@acme.dev' });

/** GET with the path sent exactly as written (fetch would normalise dot segments), redirects not followed. */
function rawGet(baseUrl: string, rawPath: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path: rawPath, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('a page whose last segment has a dot, read with a token', () => {
  test.for([
    ['/setup/node.js', '/setup/node.js.md', '# Node.js'],
    ['/guides/v2.1/', '/guides/v2.1.md', '# Guide 2.1'],
  ] as const)('%s answers its Markdown twin %s', async ([pagePath, twin, heading], { server, token }) => {
    const response = await rawGet(server.baseUrl, pagePath, { authorization: `Bearer ${token}` });
    expect([response.status, response.headers['content-type'], response.headers['content-location']]).toEqual([
      200,
      'text/markdown; charset=utf-8',
      twin,
    ]);
    expect(response.body.startsWith(heading)).toBe(true);
  });

  test.for([
    ['/setup/node.js/', '/setup/node.js'],
    ['/guides/v2.1', '/guides/v2.1/'],
  ] as const)(
    "%s redirects to the page's address %s, as for a browser",
    async ([other, address], { server, token }) => {
      const response = await rawGet(server.baseUrl, other, { authorization: `Bearer ${token}` });
      expect([response.status, response.headers.location]).toEqual([301, address]);
    },
  );

  test('the twin answers at its own address too', async ({ server, token }) => {
    const response = await rawGet(server.baseUrl, '/setup/node.js.md', { authorization: `Bearer ${token}` });
    expect([response.status, response.body.startsWith('# Node.js')]).toEqual([200, true]);
  });

  test("a script of the build is served as itself to a browser, and stays the browser's", async ({
    server,
    sessionCookie,
    token,
  }) => {
    const browser = await rawGet(server.baseUrl, '/assets/js/main.abc.js', { cookie: sessionCookie });
    expect([browser.status, browser.headers['content-type'], browser.body]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'console.log("main")',
    ]);
    const script = await rawGet(server.baseUrl, '/assets/js/main.abc.js', { authorization: `Bearer ${token}` });
    expect([script.status, script.body.includes('console.log')]).toEqual([401, false]);
  });

  test.for([
    '/setup/%2e%2e/setup/node.js',
    '/guides/v2.1/../../setup/node.js',
    '/setup/node.js%2f..%2f..%2fassets%2fjs%2fmain.abc.js',
    '/setup/node.js%00',
    '/setup/node.js%5c..%5c..%5cassets%5cjs%5cmain.abc.js',
    '/assets/js/main.abc.js.md',
  ])('never answers Markdown or a file for the trick %s', async (rawPath, { server, token }) => {
    const response = await rawGet(server.baseUrl, rawPath, { authorization: `Bearer ${token}` });
    expect([400, 401, 404]).toContain(response.status);
    expect(response.body).not.toContain('# Node.js');
    expect(response.body).not.toContain('console.log');
  });
});
