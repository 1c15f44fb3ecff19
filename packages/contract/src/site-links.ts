/**
 * The root-relative form of a link into our site (root-relative, relative, or absolute on `publicOrigin`), or
 * undefined for a link elsewhere. The server judges answers' links with it and the widget decides with it which
 * images may show, so the two cannot disagree on what is ours.
 */
export function siteUrlOf(url: string, publicOrigin: string): string | undefined {
  if (url.startsWith('//') || url.startsWith('#') || url === '') return undefined;
  // A browser reads `\` as `/` and drops tabs, newlines and the spaces around an address: `/\evil.example/faqs/` is
  // another host's `/faqs/`. None of them is in a link of ours, so an address holding one is taken as elsewhere.
  if ([...url].some((character) => character === '\\' || character <= ' ')) return undefined;
  if (url.startsWith('/')) return url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    if (!URL.canParse(url)) return undefined;
    const parsed = new URL(url);
    return parsed.origin === publicOrigin ? `${parsed.pathname}${parsed.hash}` : undefined;
  }
  // No scheme: relative to wherever the widget is, so only a path from the site root makes sense.
  return `/${url.replace(/^\.\//, '')}`;
}

/**
 * Whether an answer may show an image from `url` at all: only one of our own site (which the server then checks
 * leads somewhere). A browser fetches an image unasked, and an address elsewhere can carry what the answer holds (a
 * prompt-injected tracking pixel), so an image from anywhere else is shown as its description, live and stored alike.
 */
export const isSiteImage = (url: string, publicOrigin: string): boolean => siteUrlOf(url, publicOrigin) !== undefined;
