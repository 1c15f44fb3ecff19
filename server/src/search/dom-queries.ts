/**
 * The few questions doc-page.ts asks of a page's tree, answered by walking it: cheerio's selectors matched every
 * element of the page against each of eight selectors, a third of reading a page once it was parsed. Each answer is
 * the one cheerio gave (its `.text()`, `.children(...)`, `.find(...)`, `.attr(...)`), so the sections stay the same.
 */
import { type AnyNode, type Element, isTag, isText, type ParentNode } from 'domhandler';

/** cheerio's `.text()`: the data of every text node below, comments left out. */
export function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (node.type === 'comment' || !('children' in node)) return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}

/** Whether the element's class attribute holds this class (`.name` in a selector). */
export function hasClass(element: Element, name: string): boolean {
  return element.attribs.class?.split(/\s+/).includes(name) ?? false;
}

/** The element children whose tag is one of `names` (`.children('th, td')`). */
export function childElements(node: ParentNode, names: ReadonlySet<string>): Element[] {
  return node.children.filter((child): child is Element => isTag(child) && names.has(child.name));
}

/** Every element below `node` that `matches`, in document order (`.find(...)`). */
export function descendants(node: ParentNode, matches: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const walk = (parent: ParentNode) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      if (matches(child)) found.push(child);
      walk(child);
    }
  };
  walk(node);
  return found;
}

/** What doc-page.ts reads of a whole page, found in one walk of its tree: each the first element that matches. */
export type PageParts = {
  /** `article .theme-doc-markdown`. */
  markdown: Element | undefined;
  /** The text of every `<title>`, joined (`$('title').text()`). */
  title: string;
  /** `link[rel="canonical"]` (rel compared without case, as cheerio does). */
  canonical: Element | undefined;
  /** `meta[property="og:url"]`. */
  ogUrl: Element | undefined;
  /** `a.menu__link--active[aria-current="page"]`: the active sidebar link. */
  activeLink: Element | undefined;
  /** Every `.theme-doc-breadcrumbs .breadcrumbs__link`, in order. */
  breadcrumbs: Element[];
  /** `meta[name="keywords"]`. */
  keywords: Element | undefined;
  /** `meta[name="description"]`. */
  description: Element | undefined;
};

export function pageParts(root: ParentNode): PageParts {
  const parts: PageParts = {
    markdown: undefined,
    title: '',
    canonical: undefined,
    ogUrl: undefined,
    activeLink: undefined,
    breadcrumbs: [],
    keywords: undefined,
    description: undefined,
  };
  const walk = (parent: ParentNode, inArticle: boolean, inBreadcrumbs: boolean) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      const { name, attribs } = child;
      if (name === 'title') parts.title += textOf(child);
      else if (name === 'link' && attribs.rel?.toLowerCase() === 'canonical') parts.canonical ??= child;
      else if (name === 'meta') {
        if (attribs.property === 'og:url') parts.ogUrl ??= child;
        if (attribs.name === 'keywords') parts.keywords ??= child;
        if (attribs.name === 'description') parts.description ??= child;
      } else if (name === 'a' && attribs['aria-current'] === 'page' && hasClass(child, 'menu__link--active')) {
        parts.activeLink ??= child;
      }
      if (inArticle && !parts.markdown && hasClass(child, 'theme-doc-markdown')) parts.markdown = child;
      if (inBreadcrumbs && hasClass(child, 'breadcrumbs__link')) parts.breadcrumbs.push(child);
      walk(child, inArticle || name === 'article', inBreadcrumbs || hasClass(child, 'theme-doc-breadcrumbs'));
    }
  };
  walk(root, false, false);
  return parts;
}
