/** Every <link> tag of a page; Docusaurus writes one with rel=canonical into each page's head. */
const linkTag = /<link\b[^>]*>/gi;
/** One attribute of a tag, its value quoted either way or (minified) not at all. */
const attribute = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function canonicalHref(html: string): string | undefined {
  for (const [tag] of html.matchAll(linkTag)) {
    const attributes = new Map<string, string>();
    for (const match of tag.slice('<link'.length).matchAll(attribute)) {
      attributes.set((match[1] ?? '').toLowerCase(), match[2] ?? match[3] ?? match[4] ?? '');
    }
    if (attributes.get('rel')?.toLowerCase() === 'canonical') return attributes.get('href');
  }
  return undefined;
}

/**
 * The one address a page of the build answers at, as Docusaurus links it: "/coding-standard/" but "/cloudflare-tunnel"
 * (with trailingSlash unset, each doc's own slug decides). Read from the page's canonical link, decoded, and taken only
 * when it names this very page with or without the slash, so a build can never make the server redirect elsewhere.
 * Undefined for a page without one, which is then served at both spellings as before.
 */
export function canonicalPathOf(indexUrlPath: string, html: string): string | undefined {
  if (!indexUrlPath.endsWith('/index.html')) return undefined;
  const href = canonicalHref(html);
  if (href === undefined) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(href, 'http://this-site.invalid').pathname);
  } catch {
    return undefined;
  }
  const folder = indexUrlPath.slice(0, -'/index.html'.length);
  if (folder === '') return pathname === '/' ? '/' : undefined;
  return pathname === folder || pathname === `${folder}/` ? pathname : undefined;
}
