import { describe, expect, it } from 'vitest';
import { readDocPageSections } from './doc-page.js';

/** A built doc page as Docusaurus lays it out: navbar, sidebar, the article, pagination and footer. */
const page = (options: { head: string; sidebar: string }) => `<!doctype html><html lang=en><head>
<title>Firestore TTL | Acme Developer Handbook</title>${options.head}</head>
<body><nav class="navbar">Acme Developer Handbook <a href="/">Docs</a></nav>
<aside class="theme-doc-sidebar-container">${options.sidebar}</aside>
<main><div class="container"><article><nav class="theme-doc-breadcrumbs"><ul>
<li><a class="breadcrumbs__link" href="/">Home</a></li><li><span class="breadcrumbs__link">Firestore TTL</span></li></ul></nav>
<div class="theme-doc-markdown markdown"><header><h1>Firestore TTL</h1></header>
<p>Firestore deletes documents once their <code>expireAt</code> has passed.</p>
<h2 id="costs">Costs</h2><p>Deletes are billed like any other.</p>
<div class="row"><article class="col"><a class="card" href="/go-live-procedure">Go-Live Procedure</a></article></div>
</div></article><nav class="pagination-nav"><a href="/next">Next page</a></nav></div></main>
<footer class="footer">Copyright Acme, sidebar-free footer words</footer></body></html>`;

const sidebar = `<ul class="menu__list"><li><a class="menu__link" href="/go-live-procedure">Go-Live Procedure</a></li>
<li><a class="menu__link menu__link--active" aria-current="page" href="/firestore-ttl">Firestore TTL</a></li></ul>`;

describe('the sections of a built doc page', () => {
  it('are read from the article alone: the navbar, sidebar, pagination and footer change nothing', () => {
    const head = '<link rel=canonical href=https://docs.acme.example/firestore-ttl>';
    const withSidebar = readDocPageSections(page({ head, sidebar }), '/fallback');
    const without = readDocPageSections(page({ head, sidebar: '' }), '/fallback');
    expect(withSidebar).toEqual(without);
    expect(withSidebar.map((section) => section.url)).toEqual(['/firestore-ttl', '/firestore-ttl#costs']);
    expect(withSidebar[0]?.breadcrumbs).toEqual(['Home', 'Firestore TTL']);
    expect(withSidebar[1]?.text).toContain('Go-Live Procedure');
    expect(withSidebar.map((section) => section.text).join(' ')).not.toMatch(/Next page|footer words|Docs/);
  });

  it("are named by the page's og:url when it has no canonical link", () => {
    const head = '<meta property="og:url" content="https://docs.acme.example/firestore-ttl">';
    expect(readDocPageSections(page({ head, sidebar }), '/fallback')[0]?.url).toBe('/firestore-ttl');
  });

  it("are named by the sidebar's active link when the head names no URL, else by the path they were read at", () => {
    expect(readDocPageSections(page({ head: '', sidebar }), '/fallback')[0]?.url).toBe('/firestore-ttl');
    expect(readDocPageSections(page({ head: '', sidebar: '' }), '/fallback')[0]?.url).toBe('/fallback');
  });

  it('are none for a page without a doc article', () => {
    expect(readDocPageSections('<html><head></head><body><main>Not a doc</main></body></html>', '/x')).toEqual([]);
  });

  it('writes links whose address has a space as whole markdown links, percent-encoded as a browser sends them', () => {
    const html = page({ head: '', sidebar }).replace(
      'Deletes are billed like any other.',
      'See <a href="/Development Resources/auth migration#step 1">the migration</a>.',
    );
    const [, costs] = readDocPageSections(html, '/firestore-ttl');
    expect(costs?.blocks[0]).toEqual({
      kind: 'text',
      markdown: 'See [the migration](/Development%20Resources/auth%20migration#step%201).',
    });
  });

  it('keeps a > or < as written where markdown reads it as text, and escapes what would open a tag, quote or heading', () => {
    const html = page({ head: '', sidebar }).replace(
      '<p>Deletes are billed like any other.</p>',
      '<p>Open Build &gt; Pipelines when a &lt; b.</p><p>&lt;div&gt; is shown, not made.</p><p>&gt; not a quote</p>' +
        '<ul><li># not a heading</li></ul>',
    );
    const [, costs] = readDocPageSections(html, '/firestore-ttl');
    expect(costs?.blocks.slice(0, 4)).toEqual([
      { kind: 'text', markdown: 'Open Build > Pipelines when a < b.' },
      { kind: 'text', markdown: '\\<div> is shown, not made.' },
      { kind: 'text', markdown: '\\> not a quote' },
      { kind: 'list', ordered: false, items: ['\\# not a heading'] },
    ]);
  });
});
