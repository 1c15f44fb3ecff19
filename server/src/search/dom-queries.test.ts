import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { childElements, descendants, hasClass, pageParts, textOf } from './dom-queries.js';
import { parseHtml } from './html-tree.js';

/** A page with the traps of each question: look-alikes outside their scope, repeats, case and comments. */
const html = `<!doctype html><html><head><title>Page | Site</title>
<link rel=Canonical href=/first><link rel=canonical href=/second>
<meta property=og:url content=/og><meta name=keywords content="a, b"><meta name=keywords content=c>
<meta name=Description content=wrong-case><meta name=description content="What it is">
</head><body><nav><a class="menu__link menu__link--active" aria-current=page href=/active>x</a>
<span class=breadcrumbs__link>not in a breadcrumbs bar</span></nav>
<div class="theme-doc-markdown">outside any article</div>
<article><nav class=theme-doc-breadcrumbs><a class="breadcrumbs__link x" href=/>Home</a><span class=breadcrumbs__link>Here</span></nav>
<div class="markdown theme-doc-markdown"><h1>Title<!-- a comment --> here</h1><svg><title>icon</title></svg>
<ul><li>one<li>two<ul><li>inner</ul></ul><table><tr><th>h<td>d<tr><td>1</table></div>
<div class=theme-doc-markdown>second</div></article></body></html>`;

describe('pageParts and the DOM questions, against cheerio on the same tree', () => {
  const root = parseHtml(html);
  const $ = cheerio.load(root);
  const parts = pageParts(root);

  it('finds the first match of each selector, as cheerio does', () => {
    expect(parts.canonical?.attribs.href).toBe($('link[rel="canonical"]').attr('href'));
    expect(parts.canonical?.attribs.href).toBe('/first');
    expect(parts.ogUrl?.attribs.content).toBe($('meta[property="og:url"]').attr('content'));
    expect(parts.keywords?.attribs.content).toBe($('meta[name="keywords"]').attr('content'));
    expect(parts.description?.attribs.content).toBe($('meta[name="description"]').attr('content'));
    expect(parts.activeLink?.attribs.href).toBe($('a.menu__link--active[aria-current="page"]').attr('href'));
    expect(parts.title).toBe($('title').text());
    expect(parts.title).toBe('Page | Siteicon');
  });

  it('finds the markdown and the breadcrumbs only inside their containers', () => {
    expect(parts.markdown).toBe($('article .theme-doc-markdown').first().get(0));
    expect(parts.breadcrumbs).toEqual($('.theme-doc-breadcrumbs .breadcrumbs__link').toArray());
    expect(parts.breadcrumbs.map(textOf)).toEqual(['Home', 'Here']);
  });

  it('reads text, children and descendants as cheerio does', () => {
    const markdown = parts.markdown;
    if (!markdown) throw new Error('no markdown found');
    const [heading] = descendants(markdown, (element) => element.name === 'h1');
    expect(heading && textOf(heading)).toBe($('article .theme-doc-markdown h1').first().text());
    expect(textOf(markdown)).toBe($(markdown).text());
    const [list] = descendants(markdown, (element) => element.name === 'ul');
    if (!list) throw new Error('no list found');
    expect(childElements(list, new Set(['li']))).toEqual($(list).children('li').toArray());
    expect(descendants(markdown, (element) => element.name === 'tr')).toEqual($(markdown).find('tr').toArray());
    expect(hasClass(markdown, 'markdown')).toBe(true);
    expect(hasClass(markdown, 'theme-doc')).toBe(false);
  });
});
