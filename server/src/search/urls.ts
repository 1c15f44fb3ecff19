/** The path and #anchor of a doc link, absolute or root-relative; the path is percent-encoded as browsers send it. */
export function parseDocUrl(url: string): { path: string; anchor: string | undefined } {
  try {
    const parsed = new URL(url, 'http://docs.invalid');
    const anchor = parsed.hash.length > 1 ? decodeURIComponent(parsed.hash.slice(1)) : undefined;
    return { path: parsed.pathname, anchor };
  } catch {
    return { path: url, anchor: undefined };
  }
}

/**
 * One key per page whatever the link's form: `/coding-standard` and `/coding-standard/` are one page (the site redirects
 * the one that is not its address to the other), and `/Development Resources/x` is `/Development%20Resources/x`.
 */
export function pageKey(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // A malformed escape is kept as written; it then matches no page.
  }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
}

/** Links the site itself renders start with one `/`; anything with a scheme or host points elsewhere. */
export const isRootRelative = (url: string) => url.startsWith('/') && !url.startsWith('//');
