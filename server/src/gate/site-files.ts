import { type ErrorDetail, errorDetails } from '@acme/contract';

export type SiteResolution =
  | { kind: 'file'; file: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' }
  | { kind: 'bad-request'; reason: ErrorDetail };

/** A decoded path as a Location: every segment percent-encoded, so no "?", "#" or "\\" in a name changes its meaning. */
export const encodePath = (decoded: string) => decoded.split('/').map(encodeURIComponent).join('/');

/**
 * Maps a request path onto a file of the built site, the way Docusaurus lays it out: `/x` and `/x/` are
 * `x/index.html`, and the one of them that is not the page's canonical address (`canonicalPaths`, by file) redirects
 * to the other. `/x/index.html` and `/x.html` redirect to the page's address too (the spec strips them).
 * The path is percent-decoded exactly once; dot segments, backslashes and NUL are refused.
 */
export function resolveSitePath(
  rawPath: string,
  files: { has(path: string): boolean },
  canonicalPaths: { get(file: string): string | undefined } = new Map(),
): SiteResolution {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad-request', reason: errorDetails.path.notPercentEncoded };
  }
  if (!decoded.startsWith('/') || /[\\\0]/.test(decoded)) {
    return { kind: 'bad-request', reason: errorDetails.path.forbiddenCharacters };
  }
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) {
    return { kind: 'bad-request', reason: errorDetails.path.dotSegments };
  }
  // Routes are exact: an encoded slash names no file of the build, and decoded it would be another address.
  if (/%2f/i.test(rawPath)) return { kind: 'not-found' };
  // An empty segment would turn a redirect into "//host/...", which browsers read as another origin.
  if (decoded.includes('//')) return { kind: 'not-found' };
  /** Where a page folder's address is: its canonical one when the build names it, else as asked. */
  const addressOf = (path: string) => canonicalPaths.get(`${path.replace(/\/$/, '')}/index.html`) ?? path;
  if (decoded.endsWith('/index.html')) {
    return { kind: 'redirect', location: encodePath(addressOf(decoded.slice(0, -'index.html'.length))) };
  }
  if (decoded.endsWith('.html') && decoded.length > '/.html'.length) {
    return { kind: 'redirect', location: encodePath(addressOf(decoded.slice(0, -'.html'.length))) };
  }
  if (!decoded.endsWith('/') && files.has(decoded)) return { kind: 'file', file: decoded };
  const indexFile = `${decoded.replace(/\/$/, '')}/index.html`;
  if (!files.has(indexFile)) return { kind: 'not-found' };
  const canonical = canonicalPaths.get(indexFile);
  if (canonical !== undefined && canonical !== decoded) return { kind: 'redirect', location: encodePath(canonical) };
  return { kind: 'file', file: indexFile };
}

type SiteFiles = Parameters<typeof resolveSitePath>[1];
type CanonicalPaths = NonNullable<Parameters<typeof resolveSitePath>[2]>;

/** The file of the build a path serves, at once or through the redirect it answers; undefined when it serves none. */
export function servedFileOf(rawPath: string, files: SiteFiles, canonicalPaths?: CanonicalPaths): string | undefined {
  const resolution = resolveSitePath(rawPath, files, canonicalPaths);
  if (resolution.kind === 'file') return resolution.file;
  if (resolution.kind !== 'redirect') return undefined;
  const target = resolveSitePath(resolution.location, files, canonicalPaths);
  return target.kind === 'file' ? target.file : undefined;
}

/**
 * Whether a path is the address of a page of the build (or a spelling that redirects to one), read from its files:
 * a page's last segment may hold a dot (`/setup/node.js`, `/guides/v2.1`), so no rule on the address alone tells it
 * from a script or an image. A path the gate refuses (dot segments, encoded tricks) is no page.
 */
export const isPageAddress = (rawPath: string, files: SiteFiles, canonicalPaths?: CanonicalPaths) =>
  servedFileOf(rawPath, files, canonicalPaths)?.endsWith('.html') === true;

/**
 * Whether a token is read at a path its look alone does not settle (auth/tokens/token-scope.ts): a page's address, or
 * a path the site refuses (dot segments, encoded tricks), which a token is then refused with the browser's 400 and not
 * told it sent none. A script or image of the build, at any spelling, stays the browser's.
 */
export const takesToken = (rawPath: string, files: SiteFiles, canonicalPaths?: CanonicalPaths) =>
  resolveSitePath(rawPath, files, canonicalPaths).kind === 'bad-request' ||
  isPageAddress(rawPath, files, canonicalPaths);
