import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeOf } from './doc-page.js';
import { readDocSections } from './sections.js';

const siteDirectory = fileURLToPath(new URL('../../../site/build', import.meta.url));
const sections = readDocSections(siteDirectory);
const pageUrls = [...new Set(sections.map((section) => section.pageUrl))];

/** Every href the site's own docs index page links to, as a browser would request it. */
const siteLinks = new Set(
  [...readFileSync(path.join(siteDirectory, 'docs', 'index.html'), 'utf8').matchAll(/href=("[^"]*"|[^\s>]+)/g)].map(
    (match) => encodeURI((match[1] ?? '').replace(/^"|"$/g, '')),
  ),
);

const pageHtml = (pageUrl: string) => readFileSync(path.join(siteDirectory, decodeURI(pageUrl), 'index.html'), 'utf8');

describe('readDocSections on the built site', () => {
  it('reads every doc page and no generated page', () => {
    expect(pageUrls).toHaveLength(52);
    expect(pageUrls.filter((url) => /^\/(search|tags|docs)(\/|$)/.test(url))).toEqual([]);
  });

  it('uses the page URLs the site itself links to, trailing slash and all', () => {
    expect(pageUrls).toContain('/coding-standard/');
    expect(pageUrls).toContain('/backend-dev-rdr');
    expect(pageUrls).toContain('/Development%20Resources/shopify-auth-managed-migration');
    expect(pageUrls.filter((url) => !siteLinks.has(url))).toEqual([]);
  });

  it('links every heading section to an id that exists in its page', () => {
    const missing = sections
      .filter((section) => section.level > 1)
      .filter((section) => !pageHtml(section.pageUrl).includes(`id=${section.url.split('#')[1]}`));
    expect(missing.map((section) => section.url)).toEqual([]);
  });

  it('splits a page into its intro, h2 and h3 sections in order', () => {
    const ttl = sections.filter((section) => section.pageUrl === '/firestore-ttl');
    expect(ttl.slice(0, 3).map(({ level, heading, url }) => ({ level, heading, url }))).toEqual([
      { level: 1, heading: undefined, url: '/firestore-ttl' },
      { level: 2, heading: 'How TTL works', url: '/firestore-ttl#how-ttl-works' },
      { level: 3, heading: 'The expiry field', url: '/firestore-ttl#the-expiry-field' },
    ]);
    expect(ttl[0]?.pageTitle).toBe('Firestore TTL');
    expect(ttl[0]?.breadcrumbs).toEqual(['Firebase & Google Cloud', 'Firestore TTL']);
    expect(ttl[0]?.text).toMatch(/^Firestore time-to-live \(TTL\) policies/);
  });

  it('keeps code blocks as text and drops copy buttons, hash links and icons', () => {
    const expiry = sections.find((section) => section.url === '/firestore-ttl#the-expiry-field');
    expect(expiry?.text).toContain("import { Timestamp } from 'firebase-admin/firestore';");
    expect(expiry?.text).not.toMatch(/\u200b|\s{2}|Copy/);
    const announce = sections.find((section) => section.url === '/go-live-procedure#step-2-announce-in-releases');
    expect(announce?.heading).toBe('Step 2: announce in #releases');
  });

  it('keeps table cells apart so their words stay searchable', () => {
    const severities = sections.find((section) => section.url === '/support-procedure#severity-definitions');
    expect(severities?.text).toContain('Response time SEV1 App down');
  });

  it('keeps the blocks an answer quotes: table rows with their header, numbered steps, code with its lines', () => {
    const severities = sections.find((section) => section.url === '/support-procedure#severity-definitions');
    const table = severities?.blocks.find((block) => block.kind === 'table');
    expect(table?.kind === 'table' && table.header[0]).toBeTruthy();
    expect(table?.kind === 'table' && table.rows.length).toBeGreaterThan(2);
    expect(table?.kind === 'table' && table.rows.every((row) => row.length === table.header.length)).toBe(true);

    const support = sections.filter((section) => section.pageUrl === '/support-procedure');
    const steps = support.flatMap((section) => section.blocks).find((block) => block.kind === 'list' && block.ordered);
    expect(steps?.kind === 'list' && steps.items.length).toBeGreaterThan(1);

    const expiry = sections.find((section) => section.url === '/firestore-ttl#the-expiry-field');
    const code = expiry?.blocks.find((block) => block.kind === 'code');
    expect(code).toMatchObject({ kind: 'code', language: 'ts' });
    expect(code?.kind === 'code' && code.code.split('\n').length).toBeGreaterThan(1);
    expect(expiry && codeOf(expiry)).toContain("import { Timestamp } from 'firebase-admin/firestore';");
    const prose = expiry?.blocks.find((block) => block.kind === 'text');
    expect(prose?.kind === 'text' && prose.markdown).toContain('`expireAt`');
  });

  it("reads a page's front matter keywords with its intro", () => {
    const intro = sections.find((section) => section.url === '/cloudflare-tunnel');
    expect(intro?.keywords).toContain('ngrok');
  });

  it('names the h2 above an h3 section', () => {
    const expiry = sections.find((section) => section.url === '/firestore-ttl#the-expiry-field');
    expect(expiry?.parentHeading).toBe('How TTL works');
  });
});
