const home = '/';
const maximumLength = 2048;
/** A heading id is short; a longer fragment is no section link, and is dropped rather than carried through sign-in. */
export const maximumFragmentLength = 256;
/** A stand-in origin no request comes from: a candidate that resolves anywhere else would leave the site. */
const thisSite = 'http://this-site.invalid';

/**
 * As sent: one leading slash not followed by another slash or a backslash, then printable ASCII without backslash.
 * Browsers send paths percent-encoded, so whitespace, control characters and unicode look-alikes are refused here.
 */
const sentPath = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;
/** Decoded once: still one leading slash, and nothing a later decode or a browser could turn into a separator. */
const decodedPath = /^\/(?![/\\])[^\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
/**
 * A fragment as `location.hash` gives it (the gate page's script adds it to the return path): URL-safe characters and
 * well-formed percent escapes only, so it can neither end the Location header nor the HTML attribute it is put in.
 */
export const sentFragment = /^#(?:[\w\-.~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})+$/;

function decodeOnce(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The sign-in routes themselves: returning there would loop. */
function isSignInRoute(pathname: string): boolean {
  const decoded = decodeOnce(pathname)?.toLowerCase();
  return decoded === undefined || decoded === '/auth' || decoded.startsWith('/auth/');
}

/** The path and query part of a return path, or undefined when it is not a safe same-origin one. */
function safePathAndQuery(candidate: string): string | undefined {
  if (!sentPath.test(candidate)) return undefined;
  const decoded = decodeOnce(candidate);
  if (decoded === undefined || !decodedPath.test(decoded)) return undefined;
  const url = new URL(candidate, thisSite);
  if (url.origin !== thisSite) return undefined;
  // Dot segments are resolved here: "/.//evil.com" becomes "//evil.com", so the result is checked again.
  const normalised = `${url.pathname}${url.search}`;
  if (normalised.length > maximumLength || !sentPath.test(normalised) || isSignInRoute(url.pathname)) return undefined;
  return normalised;
}

/**
 * Returns `candidate` if it is a safe same-origin path to send the reader back to after sign-in, else '/'. A fragment
 * (a section link) is kept when it is well-formed and short; otherwise only the fragment is dropped, not the page.
 */
export function safeReturnPath(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > maximumLength + maximumFragmentLength) return home;
  const hashAt = candidate.indexOf('#');
  const pathAndQuery = hashAt === -1 ? candidate : candidate.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : candidate.slice(hashAt);
  if (pathAndQuery.length > maximumLength) return home;
  const safe = safePathAndQuery(pathAndQuery);
  if (safe === undefined) return home;
  const keepFragment = fragment.length <= maximumFragmentLength + 1 && sentFragment.test(fragment);
  return keepFragment ? `${safe}${fragment}` : safe;
}
