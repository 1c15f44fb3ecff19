import * as cheerio from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';

/** One linkable part of a doc page: the intro before the first h2, or one h2 or h3 with its text. */
export type DocSection = {
  id: string;
  pageTitle: string;
  pageUrl: string;
  heading: string | undefined;
  level: 1 | 2 | 3;
  /** The page URL, plus `#<heading id>` for a heading section, exactly as the site links to it. */
  url: string;
  text: string;
  breadcrumbs: string[];
};

/** Chrome inside the article that is not content: copy buttons, icons, checkboxes. */
const nonContentTags = new Set(['button', 'svg', 'input', 'script', 'style', 'noscript', 'header']);
/** Elements whose text must not run into the next element's text once tags are gone. */
const inlineTags = new Set('a abbr b code em i kbd mark s small span strong sub sup u'.split(' '));

function isNonContent(node: Element): boolean {
  const className = node.attribs.class ?? '';
  return nonContentTags.has(node.name) || className.includes('hash-link') || className.includes('admonitionIcon');
}

/** The visible text of a node; block elements are spaced off so words of adjacent blocks stay apart. */
function visibleText(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (!('attribs' in node)) return '';
  if (isNonContent(node)) return '';
  const inner = node.children.map(visibleText).join('');
  return inlineTags.has(node.name) ? inner : ` ${inner} `;
}

const siteTitleSuffix = /\s+\|\s+[^|]+$/;

const collapse = (text: string) =>
  text
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
    .trim();

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
function pageUrlOf($: cheerio.CheerioAPI, fallbackPath: string): string {
  return (
    pathOf($('link[rel="canonical"]').attr('href')) ??
    pathOf($('meta[property="og:url"]').attr('content')) ??
    pathOf($('a.menu__link--active[aria-current="page"]').attr('href')) ??
    fallbackPath
  );
}

/**
 * The sections of one built doc page, or none when the HTML is not a doc page. `fallbackPath` is the URL used only
 * when the page names no canonical URL of its own. Headings nested below the top level of the markdown (none in our
 * build) count as body text of the section around them.
 */
export function readDocPageSections(html: string, fallbackPath: string): DocSection[] {
  const $ = cheerio.load(html);
  const markdown = $('article .theme-doc-markdown').first();
  if (markdown.length === 0) return [];

  const pageUrl = pageUrlOf($, fallbackPath);
  const pageTitle =
    collapse(markdown.find('h1').first().text()) || collapse($('title').text()).replace(siteTitleSuffix, '');
  const breadcrumbs = $('.theme-doc-breadcrumbs .breadcrumbs__link')
    .map((_, link) => collapse($(link).text()))
    .get()
    .filter((crumb) => crumb.length > 0);

  type Draft = Omit<DocSection, 'text'> & { parts: string[] };
  const intro: Draft = {
    id: pageUrl,
    pageTitle,
    pageUrl,
    heading: undefined,
    level: 1,
    url: pageUrl,
    breadcrumbs,
    parts: [],
  };
  const drafts: Draft[] = [intro];
  for (const child of markdown.contents().toArray()) {
    const element = $(child);
    const tag = child.type === 'tag' ? child.name : undefined;
    const anchor = element.attr('id');
    if ((tag === 'h2' || tag === 'h3') && anchor) {
      const url = `${pageUrl}#${anchor}`;
      const heading = collapse(visibleText(child));
      drafts.push({ ...intro, id: url, url, heading, level: tag === 'h2' ? 2 : 3, parts: [] });
    } else {
      drafts.at(-1)?.parts.push(visibleText(child));
    }
  }
  return drafts.map(({ parts, ...section }) => ({ ...section, text: collapse(parts.join(' ')) }));
}
