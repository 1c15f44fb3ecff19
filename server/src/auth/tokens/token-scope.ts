import { browserOnlyPagePaths } from '../../browser-only-pages.js';

/**
 * Where a personal access token is accepted, in one place for a reviewer to read: the read-only APIs a script needs,
 * the MCP endpoint, and the Markdown versions of the pages (at their own addresses or at the pages'). Nowhere else
 * (settings, the token API itself, anything that writes) does an `Authorization` header count: there the session
 * cookie decides, as in a browser.
 */
const tokenRoutes = new Map<string, ReadonlySet<string>>([
  ['/api/askAi', new Set(['POST'])],
  ['/api/search', new Set(['GET', 'HEAD'])],
  ['/api/threads', new Set(['GET', 'HEAD'])],
  ['/api/threads/:id', new Set(['GET', 'HEAD'])],
  ['/mcp', new Set(['GET', 'POST', 'DELETE'])],
]);

/**
 * What a reader's own personal token may read but an application's OAuth access token may not: the reader's
 * conversations. Anyone can register an application under any name, and its consent page grants searching, reading
 * pages and asking, not a reader's chats (which may hold what they pasted into them).
 */
const personalTokenOnlyRoutes = new Set(['/api/threads', '/api/threads/:id']);

export const acceptsApplicationToken = (routeUrl: string | undefined) =>
  routeUrl === undefined || !personalTokenOnlyRoutes.has(routeUrl);

/** Built files a script reads: a page as Markdown (`/coding-standard.md`) and the indexes of them. */
const markdownPath = /^\/[^?#]*\.md$/;
const markdownIndexes = new Set(['/llms.txt', '/llms-full.txt']);

/**
 * A page's address (`/faqs/`, `/coding-standard`, `/`): a token reads it as its Markdown twin, never as HTML
 * (gate/site-routes.ts). Scripts, images and styles have an extension and stay the browser's.
 */
const pageAddress = /^\/([^?#]*\/)?[^./?#]*(\.html)?$/;

/** Pages made for a browser alone (browser-only-pages.ts): a token there gets "No Markdown version", never the page. */
const browserPageRoutes = new Set(browserOnlyPagePaths);

/** `routeUrl` is the route's pattern as registered (`/api/threads/:id`, `/*` for the built site). */
export function acceptsPersonalToken(
  method: string,
  routeUrl: string | undefined,
  path: string,
  /**
   * Whether the build has a page at the path (its address may end in `.js` or `.1`), or refuses the path to everyone
   * (gate/site-files.ts): a token sent there is answered as a browser would be.
   */
  takesToken: (path: string) => boolean = () => false,
): boolean {
  const read = method === 'GET' || method === 'HEAD';
  if (routeUrl === '/*') return read && (isMarkdownPath(path) || pageAddress.test(path) || takesToken(path));
  if (routeUrl !== undefined && browserPageRoutes.has(routeUrl)) return read;
  return routeUrl !== undefined && (tokenRoutes.get(routeUrl)?.has(method) ?? false);
}

export function isMarkdownPath(path: string): boolean {
  return markdownIndexes.has(path) || markdownPath.test(path);
}

/** A query parameter a script may have put its token in, as some APIs read it (`?token=`, `?access_token=`). */
export const hasTokenInAddress = (url: string) => /[?&](access_)?token=/i.test(url);
