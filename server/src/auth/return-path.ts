const home = '/';
const maximumLength = 2048;
/** A stand-in origin no request comes from: a candidate that resolves anywhere else would leave the site. */
const thisSite = 'http://this-site.invalid';

/**
 * As sent: one leading slash not followed by another slash or a backslash, then printable ASCII without backslash.
 * Browsers send paths percent-encoded, so whitespace, control characters and unicode look-alikes are refused here.
 */
const sentPath = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;
/** Decoded once: still one leading slash, and nothing a later decode or a browser could turn into a separator. */
const decodedPath = /^\/(?![/\\])[^\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

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

/** Returns `candidate` if it is a safe same-origin path to send the reader back to after sign-in, else '/'. */
export function safeReturnPath(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > maximumLength || !sentPath.test(candidate)) return home;
  const decoded = decodeOnce(candidate);
  if (decoded === undefined || !decodedPath.test(decoded)) return home;
  const url = new URL(candidate, thisSite);
  if (url.origin !== thisSite) return home;
  // Dot segments are resolved here: "/.//evil.com" becomes "//evil.com", so the result is checked again.
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  if (normalised.length > maximumLength || !sentPath.test(normalised) || isSignInRoute(url.pathname)) return home;
  return normalised;
}
