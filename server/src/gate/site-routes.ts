import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { withoutQuery } from '../access-log.js';
import { sendApiError } from '../api-errors.js';
import { isAllowed } from '../auth/request-access.js';
import { safeReturnPath } from '../auth/return-path.js';
import { signInStatus } from '../auth/sign-in-response.js';
import { isMarkdownPath } from '../auth/tokens/token-scope.js';
import { sendServedFile } from './file-response.js';
import { encodePath, resolveSitePath, servedFileOf } from './site-files.js';
import type { SiteSnapshot } from './site-snapshot.js';

/**
 * Serves the built Docusaurus site to allowed sessions only, from the current snapshot in memory: clean URLs, .html
 * redirects, precompressed files and the site's own 404 page. Everyone else gets the sign-in page, whatever the path,
 * so not even the route list leaks. Each page answers at one address, its canonical one; the other spelling redirects.
 */
export const siteRoutes = fp(
  async (app) => {
    const { site, signInPage } = app;
    const decodesToAnotherRoute = (pathname: string) => {
      const decoded = decodedSlashes(pathname);
      if (decoded === undefined) return false;
      const owner = app.findRoute({ method: 'GET', url: encodePath(decoded) });
      // This route's own match holds the whole path, as the fast lane tells them apart (fast-lane-plugin.ts).
      return owner !== null && owner.params['*'] !== decoded.slice(1);
    };
    const handler = (request: FastifyRequest, reply: FastifyReply) => {
      if (!isAllowed(request.access)) {
        const status = signInStatus(request.access);
        return signInPage(request, reply, { status, returnPath: safeReturnPath(request.url) });
      }
      // An address under /api/ that no API route took (an unknown name, a parameter longer than the router reads) is
      // the API's own 404, in its JSON shape, for a browser, a script or a token alike: never the site's HTML page.
      if (withoutQuery(request.url).startsWith('/api/')) return sendApiError(reply, 'not_found:route');
      const snapshot = site.current();
      // A script or agent with a token asked for a page's address (the links in search results and in the Markdown
      // itself are such addresses): it reads the page as Markdown there, never the HTML made for a browser.
      if (request.access.state === 'signed-in' && request.access.personalTokenId !== undefined) {
        return sendMarkdownTwin(request, reply, snapshot);
      }
      // `/insights%2F` reaches this route, yet decodes to the address of a route with its own gate (the maintainers'
      // page): that route decides, so here it is an unknown address, neither served nor redirected to. Only an encoded
      // slash hides a route from the router; other characters stay encoded in the lookup, as the router reads them.
      if (decodesToAnotherRoute(withoutQuery(request.url))) {
        return sendServedFile(request, reply, snapshot.notFoundPage, 404);
      }
      return sendSitePath(request, reply, snapshot);
    };
    app.route({ method: ['GET', 'HEAD'], url: '/*', handler });
  },
  { name: 'site-routes', fastify: '5.x', encapsulate: true, decorators: { fastify: ['site', 'signInPage'] } },
);

const sendMarkdownNotFound = (reply: FastifyReply, text: string) =>
  reply.code(404).header('cache-control', 'no-store').type('text/markdown; charset=utf-8').send(text);
const noPage = '# Not found\n\nNo page of the handbook is at this address. Every page is listed in /llms.txt.\n';
/**
 * A page made for the browser alone (the tag list, the search page, the Dev Copilot page): a token cannot read it. The
 * address is never repeated: what a token holder sends would come back as Markdown from the handbook's own address.
 */
const noMarkdownVersion =
  "# No Markdown version\n\nThis is a page of the handbook's site for a browser, signed in; it has no Markdown version. Every page that has one is listed in /llms.txt.\n";

/**
 * What a token (a script, a coding agent) gets at an address of the site: what a browser gets, read with the browser's
 * own rule (resolveSitePath), except that a page is its Markdown twin. So the other spelling of a page redirects to its
 * address, and an address that names no page is a Markdown 404. A page with no twin (made for a browser alone, the
 * maintainers' insights too) answers "No Markdown version" at every spelling, never a redirect to it.
 */
export function sendMarkdownTwin(request: FastifyRequest, reply: FastifyReply, snapshot: SiteSnapshot) {
  const pathname = withoutQuery(request.url);
  const resolution = resolveSitePath(pathname, snapshot.files, snapshot.canonicalPaths);
  if (resolution.kind === 'not-found') return sendMarkdownNotFound(reply, noPage);
  const file = servedFileOf(pathname, snapshot.files, snapshot.canonicalPaths);
  // A refused path, or a redirect to no page (`/no-such-page/index.html`): as the browser gets it.
  if (file === undefined) return sendSitePath(request, reply, snapshot);
  const twin = markdownVersionOf(file);
  const twinFile = twin === undefined ? undefined : snapshot.files.get(twin);
  if (twin === undefined || !twinFile) return sendMarkdownNotFound(reply, noMarkdownVersion);
  if (resolution.kind === 'redirect' || twin === file) return sendSitePath(request, reply, snapshot);
  // The same address answers a browser with HTML: caches must tell the two apart.
  const headers = { ...twinFile.headers, vary: 'Accept-Encoding, Authorization', 'content-location': encodePath(twin) };
  return sendServedFile(request, reply, { ...twinFile, headers });
}

/**
 * The Markdown a token reads for a file of the build: a page's twin as the build writes it (`/faqs/index.html` ->
 * `/faqs.md`, `/index.html` -> `/index.md`), a Markdown file or `llms.txt` itself; undefined for any other file.
 */
function markdownVersionOf(file: string): string | undefined {
  if (file.endsWith('/index.html')) return `${file.slice(0, -'/index.html'.length) || '/index'}.md`;
  return isMarkdownPath(file) ? file : undefined;
}

/** The path decoded once, when it holds an encoded slash; undefined when it holds none or cannot be decoded. */
function decodedSlashes(pathname: string): string | undefined {
  if (!/%2f/i.test(pathname)) return undefined;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/** Answers a path of the built site from this snapshot: its file, its canonical address, or the site's 404 page. */
export function sendSitePath(request: FastifyRequest, reply: FastifyReply, snapshot: SiteSnapshot) {
  const pathname = withoutQuery(request.url);
  const resolution = resolveSitePath(pathname, snapshot.files, snapshot.canonicalPaths);
  switch (resolution.kind) {
    case 'file':
      return sendServedFile(request, reply, snapshot.files.get(resolution.file) ?? snapshot.notFoundPage);
    case 'redirect': {
      const query = request.url.slice(pathname.length);
      return reply.header('cache-control', 'no-store').redirect(`${resolution.location}${query}`, 301);
    }
    case 'bad-request':
      return sendApiError(reply, 'bad_request:path', resolution.reason);
    case 'not-found': {
      const retired = snapshot.retiredAssets.get(pathname);
      if (retired) return sendServedFile(request, reply, retired);
      // A script or coding agent asking for a page as Markdown gets its answer in Markdown, not the site's HTML page.
      if (isMarkdownPath(pathname)) return sendMarkdownNotFound(reply, noPage);
      return sendServedFile(request, reply, snapshot.notFoundPage, 404);
    }
  }
}
