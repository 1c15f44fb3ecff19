import { createRequire } from 'node:module';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
export const maxRedirectUriCharacters = 500;

/**
 * Coding agents whose private-use scheme is their product's name rather than a reversed domain (RFC 8252 7.1 asks for
 * `com.example.app:`). Only these and reversed domains are accepted: any other scheme may be one the OS itself acts on
 * (`ms-msdt:`, `search-ms:`, `shell:`), and the handbook's domain must not be a way to send a reader into it.
 */
const agentSchemes = new Set(['cursor', 'vscode', 'vscode-insiders', 'windsurf', 'zed', 'claude', 'kiro', 'trae']);

/**
 * A reversed domain: a top-level domain of letters alone, then one label or more, each a letter then letters, digits or
 * hyphens (`com.example.agent`). An OS's or an application's own schemes with a dot (`x-apple.systempreferences:`,
 * LibreOffice's `vnd.libreoffice.command:`, Apple's `itms.apps:`) do not start with a real top-level domain: the first
 * label must be one of IANA's (the `tlds` package, kept up to date with IANA's list).
 */
const reversedDomain = /^([a-z]{2,63})(\.[a-z][a-z0-9-]*)+$/;
const topLevelDomains = new Set(createRequire(import.meta.url)('tlds') as string[]);
/**
 * Operating systems' own reversed-domain namespaces: Windows registers schemes such as `microsoft.windows.camera:` and
 * `microsoft.windows.photos.crop:`, which a real top-level domain (`microsoft`) starts. No agent of ours lives there.
 */
const operatingSystemNamespace = /^(?:microsoft|windows|apple|com\.apple|com\.microsoft|android|com\.android)\./;
const isReversedDomain = (scheme: string) =>
  topLevelDomains.has(reversedDomain.exec(scheme)?.[1] ?? '') && !operatingSystemNamespace.test(scheme);

/** Spaces and control characters: no URI holds them raw, and a stored one would not survive the database. */
const controlOrSpace = /[\p{Cc}\s]/u;

/**
 * Where a coding agent may have the reader's browser sent back with a code: an https address; plain http only to
 * this machine's loopback (an agent's local callback, RFC 8252 7.3); or a native application's private-use scheme
 * such as `com.example.agent:/callback` or Cursor's `cursor://anysphere.cursor-mcp/...` (RFC 8252 7.1; PKCE binds the code to the agent that asked, and
 * the consent page names the scheme the reader returns to). No fragment, no user name or password in it, and an
 * authorization request must then name one of the client's registered URIs exactly, character for character.
 */
export function isAcceptableRedirectUri(candidate: string): boolean {
  if (candidate.length > maxRedirectUriCharacters || controlOrSpace.test(candidate) || !URL.canParse(candidate)) {
    return false;
  }
  const url = new URL(candidate);
  if (url.hash || candidate.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return loopbackHosts.has(url.hostname);
  // A private-use URI names its application by the scheme and goes somewhere: `scheme://host/...` or `scheme:/path`.
  const scheme = url.protocol.slice(0, -1);
  return (agentSchemes.has(scheme) || isReversedDomain(scheme)) && /^[a-z][a-z0-9+.-]*:\/./.test(candidate);
}
