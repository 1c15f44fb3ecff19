const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
export const maxRedirectUriCharacters = 500;

/**
 * Where a coding agent may have the reader's browser sent back with a code: an https address, or plain http only to
 * this machine's loopback (an agent's local callback, RFC 8252). No fragment, no user name or password in it, and an
 * authorization request must then name one of the client's registered URIs exactly, character for character.
 */
export function isAcceptableRedirectUri(candidate: string): boolean {
  if (candidate.length > maxRedirectUriCharacters || !URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  if (url.hash || candidate.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  return url.protocol === 'http:' && loopbackHosts.has(url.hostname);
}
