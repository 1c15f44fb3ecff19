import { readFileSync } from 'node:fs';
import path from 'node:path';
import { builtMarkdownOrigin } from '@acme/contract';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { listSiteFiles, siteBuildDirectory } from './harness';
import { tokensApi, withToken } from './tokens-api';

/** Pages as Markdown, llms.txt and llms-full.txt (issue 28, item 3), served through the gate from the build. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

/** Every built doc page (its article is Docusaurus' doc Markdown) with the address the site links it at. */
const docPages = [...listSiteFiles(siteBuildDirectory)]
  .filter((file) => file.endsWith('.html'))
  .map((file) => ({ file, html: readFileSync(path.join(siteBuildDirectory, file), 'utf8') }))
  .filter(({ html }) => html.includes('theme-doc-markdown'))
  .map(({ file, html }) => {
    const link = /<link[^>]+rel="?canonical"?[^>]+href=(?:"([^"]+)"|([^"\s>]+))/.exec(html);
    const canonical = link?.[1] ?? link?.[2] ?? '';
    return { file, html, pagePath: new URL(canonical).pathname };
  });

/** As the site links a page (`/Development%20Resources/x/`), its Markdown's address. */
const markdownPathOf = (pagePath: string) => `${pagePath.replace(/\/+$/, '') || '/index'}.md`;

/** The words a reader sees: lower-cased runs of letters and digits of three or more. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

function articleText(html: string): string {
  const start = html.indexOf('theme-doc-markdown');
  const end = html.indexOf('</article>', start);
  return html
    .slice(start, end)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ');
}

function markdownText(markdown: string): string {
  return markdown.replace(/\]\([^)\n]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');
}

const share = (part: Set<string>, whole: Set<string>) => [...part].filter((word) => whole.has(word)).length / part.size;

test.beforeAll(async ({ sessionCookie }) => {
  expect(sessionCookie).toContain('acme_session=');
});

describe('pages as Markdown', () => {
  test('llms.txt lists every doc page, by sidebar category, with its title and description', async ({
    server,
    sessionCookie,
  }) => {
    expect(docPages.length).toBeGreaterThan(40);
    const response = await fetch(`${server.baseUrl}/llms.txt`, { headers: { cookie: sessionCookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const index = await response.text();
    expect(index.startsWith('# Acme Developer Handbook\n\n> ')).toBe(true);
    expect(index).toContain('\n## Getting started\n');
    const listed = [...index.matchAll(/^- \[(.+?)\]\((\S+?)\)(: .+)?$/gm)].map(
      (match) => new URL(match[2] ?? '').pathname,
    );
    expect(new Set(listed)).toEqual(new Set(docPages.map((page) => markdownPathOf(page.pagePath))));
  });

  test('each page Markdown holds its page text, without front matter, with absolute links', async ({
    server,
    sessionCookie,
  }) => {
    for (const page of docPages) {
      const response = await fetch(`${server.baseUrl}${markdownPathOf(page.pagePath)}`, {
        headers: { cookie: sessionCookie },
      });
      expect(response.status, page.pagePath).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const markdown = await response.text();
      expect(markdown.startsWith('---'), page.pagePath).toBe(false);
      expect(markdown, page.pagePath).not.toMatch(/\]\(\/(?!\/)/);
      const pageWords = wordsOf(articleText(page.html));
      const markdownWords = wordsOf(markdownText(markdown));
      expect(share(markdownWords, pageWords), page.pagePath).toBeGreaterThan(0.95);
      expect(share(pageWords, markdownWords), page.pagePath).toBeGreaterThan(0.95);
    }
  });

  test('llms-full.txt holds every page in full', async ({ server, sessionCookie }) => {
    const full = await (await fetch(`${server.baseUrl}/llms-full.txt`, { headers: { cookie: sessionCookie } })).text();
    for (const page of docPages.slice(0, 10)) {
      const markdown = await (
        await fetch(`${server.baseUrl}${markdownPathOf(page.pagePath)}`, { headers: { cookie: sessionCookie } })
      ).text();
      expect(full).toContain(markdown);
    }
  });

  test('linksToTheServersOwnPublicOriginWhateverTheBuildWasMadeFor', async ({ server, sessionCookie }) => {
    const origin = server.config.publicUrl.origin;
    for (const file of ['llms.txt', 'llms-full.txt', 'firestore-ttl.md']) {
      const built = readFileSync(path.join(siteBuildDirectory, file), 'utf8');
      expect(built, file).toContain(`](${builtMarkdownOrigin}/`);
      for (const encoding of ['identity', 'gzip', 'br']) {
        const response = await fetch(`${server.baseUrl}/${file}`, {
          headers: { cookie: sessionCookie, 'accept-encoding': encoding },
        });
        const text = await response.text();
        expect(text, `${file} ${encoding}`).toBe(built.replaceAll(builtMarkdownOrigin, origin));
        expect(text, `${file} ${encoding}`).toContain(`](${origin}/`);
      }
    }
  });

  test('aStrangerGetsNoMarkdownNoLlmsTxt', async ({ server }) => {
    for (const address of ['/llms.txt', '/llms-full.txt', '/firestore-ttl.md', '/coding-standard.md']) {
      const response = await fetch(`${server.baseUrl}${address}`);
      expect(response.status, address).toBe(401);
      expect(await response.text()).not.toContain('TTL policy');
    }
  });

  test('a personal token reads them, in the Authorization header only', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('reader script');
    const markdown = await fetch(`${server.baseUrl}/firestore-ttl.md`, withToken(token));
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain('# Firestore TTL');
    expect((await fetch(`${server.baseUrl}/llms.txt`, withToken(token))).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/firestore-ttl.md?access_token=${token}`)).status).toBe(401);
    // At a page's own address (the links of search results and of the Markdown itself) a token reads the same
    // Markdown, whatever it accepts: never the HTML made for a browser.
    const twin = await (await fetch(`${server.baseUrl}/firestore-ttl.md`, withToken(token))).text();
    for (const address of ['/firestore-ttl', '/firestore-ttl/', '/firestore-ttl.html', '/firestore-ttl/index.html']) {
      const page = await fetch(`${server.baseUrl}${address}`, withToken(token, { headers: { accept: 'text/html' } }));
      expect({ address, status: page.status }).toEqual({ address, status: 200 });
      expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(page.headers.get('content-location')).toBe('/firestore-ttl.md');
      expect(page.headers.get('vary')).toContain('Authorization');
      expect(await page.text()).toBe(twin);
    }
    const home = await fetch(`${server.baseUrl}/`, withToken(token));
    expect(home.headers.get('content-location')).toBe('/index.md');
    // A page with no Markdown twin (the site's own tools) and a made-up token get no HTML either.
    const tool = await fetch(`${server.baseUrl}/access-tokens`, withToken(token));
    expect(tool.status).toBe(404);
    expect(await tool.text()).not.toContain('<html');
    const madeUp = await fetch(`${server.baseUrl}/firestore-ttl`, withToken(`${token.slice(0, -4)}AAAA`));
    expect(madeUp.status).toBe(401);
    expect(await madeUp.text()).not.toContain('TTL');
  });

  test('aPageThatIsNotThereIsAMarkdown404NotTheSitesHtmlPage', async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent reading a moved page');
    for (const init of [withToken(token), { headers: { cookie: sessionCookie } }]) {
      const missing = await fetch(`${server.baseUrl}/no-such-page.md`, init);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^text\/markdown/);
      const text = await missing.text();
      expect(text).toContain('/llms.txt');
      expect(text).not.toContain('<html');
    }
  });
});
