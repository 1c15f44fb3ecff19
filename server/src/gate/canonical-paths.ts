/** Every <link> tag of a page; Docusaurus writes one with rel=canonical into each page's head. */
const linkTag = /<link\b[^>]*>/gi;
/** One attribute of a tag, its value quoted either way or (minified) not at all. */
const attribute = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/**
 * A page's bytes are searched as Latin-1 (one character per byte, no decoding: at thousands of pages, decoding them as
 * UTF-8 was most of a start's reading time), and only the link tags found are decoded as UTF-8.
 */
function canonicalHref(html: string | Uint8Array): string | undefined {
  const bytes = typeof html !== 'string';
  const searched = bytes ? Buffer.from(html.buffer, html.byteOffset, html.byteLength).toString('latin1') : html;
  for (const [found] of searched.matchAll(linkTag)) {
    const tag = bytes ? Buffer.from(found, 'latin1').toString('utf8') : found;
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
export function canonicalPathOf(indexUrlPath: string, html: string | Uint8Array): string | undefined {
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
