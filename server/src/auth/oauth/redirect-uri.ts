const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
export const maxRedirectUriCharacters = 500;

/**
 * Schemes a browser (or the OS) handles itself rather than handing to an installed application: never a private-use
 * redirect. http and https are judged by their own rule above.
 */
const notPrivateUse = new Set([
  'about:',
  'blob:',
  'chrome:',
  'chrome-extension:',
  'data:',
  'edge:',
  'file:',
  'filesystem:',
  'ftp:',
  'intent:',
  'javascript:',
  'mailto:',
  'moz-extension:',
  'sms:',
  'tel:',
  'vbscript:',
  'view-source:',
  'ws:',
  'wss:',
]);

/**
 * Where a coding agent may have the reader's browser sent back with a code: an https address; plain http only to
 * this machine's loopback (an agent's local callback, RFC 8252 7.3); or a native application's private-use scheme
 * such as Cursor's `cursor://anysphere.cursor-mcp/...` (RFC 8252 7.1; PKCE binds the code to the agent that asked, and
 * the consent page names the scheme the reader returns to). No fragment, no user name or password in it, and an
 * authorization request must then name one of the client's registered URIs exactly, character for character.
 */
export function isAcceptableRedirectUri(candidate: string): boolean {
  if (candidate.length > maxRedirectUriCharacters || !URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  if (url.hash || candidate.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return loopbackHosts.has(url.hostname);
  // A private-use URI names its application by the scheme and goes somewhere: `scheme://host/...` or `scheme:/path`.
  return !notPrivateUse.has(url.protocol) && /^[a-z][a-z0-9+.-]*:\/./.test(candidate);
}
