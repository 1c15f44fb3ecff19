import type { AnyNode, Element } from 'domhandler';
import { childElements, descendants, hasClass, type PageParts, pageParts, textOf } from './dom-queries.js';
import { parseHtml } from './html-tree.js';

/** A piece of a section that an answer can quote on its own, kept in the shape the page shows it. */
export type Block =
  /** A paragraph, admonition or quote, as inline markdown (code spans and links kept). */
  | { kind: 'text'; markdown: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; header: string[]; rows: string[][] }
  | { kind: 'code'; language: string; code: string };

/** One linkable part of a doc page: the intro before the first h2, or one h2 or h3 with its text. */
export type DocSection = {
  id: string;
  pageTitle: string;
  pageUrl: string;
  heading: string | undefined;
  /** The h2 above an h3 section. */
  parentHeading: string | undefined;
  level: 1 | 2 | 3;
  /** The page URL, plus `#<heading id>` for a heading section, exactly as the site links to it. */
  url: string;
  /** Everything the section shows, code included, as plain text. */
  text: string;
  /** What it shows, block by block; its code blocks are `codeOf` it. */
  blocks: Block[];
  breadcrumbs: string[];
  /** The page's front matter `keywords`: the names the team also uses for its subject. */
  keywords: string[];
  /** What the page is for, in a sentence: its meta description (front matter, else its first paragraph). Not searched. */
  description?: string | undefined;
};

/** Chrome inside the article that is not content: copy buttons, icons, checkboxes. */
const nonContentTags = new Set(['button', 'svg', 'input', 'script', 'style', 'noscript', 'header']);
/** Elements whose text must not run into the next element's text once tags are gone. */
const inlineTags = new Set('a abbr b code em i kbd mark s small span strong sub sup u br'.split(' '));

function isNonContent(node: Element): boolean {
  const className = node.attribs.class ?? '';
  return nonContentTags.has(node.name) || className.includes('hash-link') || className.includes('admonitionIcon');
}

/** Inline markdown on one line; one that opens with `>` or `#` would read as a quote or a heading, so it is escaped. */
const collapse = (text: string) =>
  text
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[>#]/, '\\$&');

/**
 * The page's text as markdown shows it: a `<` that could open a tag or an autolink (`<div>`, `</`, `<!--`) is escaped
 * with a backslash; any other `<` or `>` (`a < b`, `Build > Pipelines`) stays as written, as a reader copies it.
 */
export const literalMarkdown = (text: string) => text.replace(/<(?=[\p{L}/!?])/gu, '\\<');

/** The visible text of a node; block elements are spaced off so words of adjacent blocks stay apart. */
function visibleText(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (!('attribs' in node) || isNonContent(node)) return '';
  const inner = node.children.map(visibleText).join('');
  return inlineTags.has(node.name) ? inner : ` ${inner} `;
}

/** Inline markdown of a node: code spans and links survive, other markup becomes its text. */
function inlineMarkdown(node: AnyNode, pageUrl: string): string {
  if (node.type === 'text') return literalMarkdown(node.data);
  if (!('attribs' in node) || isNonContent(node)) return '';
  if (node.name === 'code') return `\`${visibleText(node).replace(/`/g, "'")}\``;
  const inner = node.children.map((child) => inlineMarkdown(child, pageUrl)).join('');
  if (node.name === 'strong' || node.name === 'b') return `**${inner.trim()}**`;
  if (node.name === 'a') {
    const href = node.attribs.href ?? '';
    const target = linkTarget(href.startsWith('#') ? `${pageUrl}${href}` : href);
    return target ? `[${collapse(inner)}](${target})` : inner;
  }
  return inlineTags.has(node.name) ? inner : ` ${inner} `;
}

/**
 * A link's address as a markdown link can hold it: percent-encoded as a browser sends it (the site links a page in
 * "Development Resources" with a raw space, which ends a markdown link); undefined for one that is not a page's or a
 * web address.
 */
function linkTarget(href: string): string | undefined {
  if (!/^(\/[^/]|https?:)/.test(href)) return undefined;
  try {
    const url = new URL(href, 'http://docs.invalid');
    return href.startsWith('/') ? `${url.pathname}${url.search}${url.hash}` : url.href;
  } catch {
    return undefined;
  }
}

/** The path part of an absolute or root-relative URL, percent-encoded as a browser would send it. */
function pathOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    return new URL(href, 'http://docs.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** The URL the site itself uses for the page: canonical link, then og:url, then the active sidebar link. */
function pageUrlOf(parts: PageParts, fallbackPath: string): string {
  return (
    pathOf(parts.canonical?.attribs.href) ??
    pathOf(parts.ogUrl?.attribs.content) ??
    pathOf(parts.activeLink?.attribs.href) ??
    fallbackPath
  );
}

const listItem = new Set(['li']);
const cells = new Set(['th', 'td']);
const blockChildren = new Set(['ul', 'ol', 'table', 'div', 'p']);
const isNamed = (name: string) => (element: Element) => element.name === name;

/** The blocks of one top-level element of the page's markdown. */
function blocksOf(element: Element, pageUrl: string): Block[] {
  const inline = (node: AnyNode) => collapse(inlineMarkdown(node, pageUrl));
  if (element.name === 'ul' || element.name === 'ol') {
    const items = childElements(element, listItem)
      .map(inline)
      .filter((item) => item.length > 0);
    return items.length ? [{ kind: 'list', ordered: element.name === 'ol', items }] : [];
  }
  if (element.name === 'table') {
    const cellsOf = (row: Element) => childElements(row, cells).map(inline);
    const [headerRow, ...bodyRows] = descendants(element, isNamed('tr'));
    return headerRow ? [{ kind: 'table', header: cellsOf(headerRow), rows: bodyRows.map(cellsOf) }] : [];
  }
  // Any class holding the name (a wrapper's `theme-code-block-wrapper` too), as this was read before.
  if ((element.attribs.class ?? '').includes('theme-code-block')) {
    const lines = descendants(element, (line) => hasClass(line, 'token-line'));
    const code = (lines.length ? lines.map(textOf) : [descendants(element, isNamed('pre')).map(textOf).join('')])
      .join('\n')
      .replace(/\u200b/g, '')
      .trimEnd();
    const language = /language-([\w-]+)/.exec(element.attribs.class ?? '')?.[1] ?? 'text';
    return code ? [{ kind: 'code', language, code }] : [];
  }
  const nested = childElements(element, blockChildren).filter(
    (child) => child.name !== 'div' || hasClass(child, 'theme-code-block'),
  );
  if (nested.length > 1) return nested.flatMap((child) => blocksOf(child, pageUrl));
  const markdown = inline(element);
  return markdown ? [{ kind: 'text', markdown }] : [];
}

/**
 * The head and the article of a built page, without the navbar, sidebar and footer around the article: a fifth of a
 * page's HTML that parsing would otherwise spend its time on, for nothing read from it. The whole page when the head
 * names no URL of its own (the active sidebar link is then what names the page), or when it has no single article.
 */
function readablePart(html: string): string {
  const headEnd = html.indexOf('</head>');
  const articleStart = html.indexOf('<article');
  const articleEnd = html.lastIndexOf('</article>');
  if (headEnd < 0 || articleStart < headEnd || articleEnd < articleStart) return html;
  const head = html.slice(0, headEnd);
  if (!/rel=["']?canonical|property=["']?og:url/.test(head)) return html;
  return `${head}</head><body>${html.slice(articleStart, articleEnd + '</article>'.length)}</body></html>`;
}

/**
 * The sections of one built doc page, or none when the HTML is not a doc page. `fallbackPath` is the URL used only
 * when the page names no canonical URL of its own. Headings below h3 stay inside their section.
 */
export function readDocPageSections(html: string, fallbackPath: string): DocSection[] {
  const parts = pageParts(parseHtml(readablePart(html)));
  const markdown = parts.markdown;
  if (!markdown) return [];

  const pageUrl = pageUrlOf(parts, fallbackPath);
  const [heading] = descendants(markdown, isNamed('h1'));
  const pageTitle = collapse(heading ? textOf(heading) : '') || collapse(parts.title).replace(/\s+\|\s+[^|]+$/, '');
  const breadcrumbs = parts.breadcrumbs.map((link) => collapse(textOf(link))).filter((crumb) => crumb.length > 0);
  const keywords = (parts.keywords?.attribs.content ?? '')
    .split(',')
    .map((keyword) => keyword.trim())
    .filter(Boolean);
  const description = collapse(parts.description?.attribs.content ?? '') || undefined;

  type Draft = Omit<DocSection, 'text'> & { parts: string[] };
  const intro: Draft = {
    id: pageUrl,
    pageTitle,
    pageUrl,
    heading: undefined,
    parentHeading: undefined,
    level: 1,
    url: pageUrl,
    breadcrumbs,
    keywords,
    description,
    blocks: [],
    parts: [],
  };
  const drafts: Draft[] = [intro];
  let currentH2: string | undefined;
  for (const child of markdown.children) {
    const tag = child.type === 'tag' ? child.name : undefined;
    const anchor = child.type === 'tag' ? child.attribs.id : undefined;
    if (child.type === 'tag' && (tag === 'h2' || tag === 'h3') && anchor) {
      const url = `${pageUrl}#${anchor}`;
      const heading = collapse(visibleText(child));
      if (tag === 'h2') currentH2 = heading;
      const parentHeading = tag === 'h3' ? currentH2 : undefined;
      drafts.push({
        ...intro,
        id: url,
        url,
        heading,
        parentHeading,
        level: tag === 'h2' ? 2 : 3,
        blocks: [],
        parts: [],
      });
      continue;
    }
    const section = drafts.at(-1);
    if (!section) continue;
    section.parts.push(visibleText(child));
    if (child.type === 'tag') section.blocks.push(...blocksOf(child, pageUrl));
    else if (child.type === 'text' && collapse(child.data))
      section.blocks.push({ kind: 'text', markdown: collapse(child.data) });
  }
  return drafts.map(({ parts, ...section }) => ({ ...section, text: collapse(parts.join(' ')) }));
}

/** The text of a section's code blocks alone: derived, not kept, as it repeats part of the text. */
export const codeOf = (section: DocSection) =>
  section.blocks.flatMap((block) => (block.kind === 'code' ? [block.code] : [])).join('\n');
