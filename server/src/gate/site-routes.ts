import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendApiError } from '../api-errors.js';
import { safeReturnPath } from '../auth/return-path.js';
import type { SendSignInPage } from '../auth/sign-in-response.js';
import { isAllowed } from '../auth/viewer.js';
import { resolveSitePath } from './site-files.js';

const hashedAsset = /^\/assets\//;

/** Authenticated responses may sit in the reader's own browser cache, never in a shared one. */
function cacheControlFor(file: string): string {
  if (hashedAsset.test(file)) return 'private, max-age=31536000, immutable';
  return 'private, no-cache';
}

/**
 * Serves the built Docusaurus site to allowed sessions only: clean URLs, .html redirects, precompressed files and
 * the site's own 404 page. Everyone else gets the sign-in page, whatever the path, so not even the route list leaks.
 */
export async function siteRoutes(
  app: FastifyInstance,
  options: { siteDirectory: string; files: () => ReadonlySet<string>; sendSignInPage: SendSignInPage; gated?: boolean },
) {
  const gated = options.gated ?? true;
  if (!options.files().has('/404.html')) {
    throw new Error(`${options.siteDirectory} has no 404.html: build the site first (npm run build).`);
  }
  await app.register(fastifyStatic, {
    root: options.siteDirectory,
    serve: false,
    cacheControl: false,
    dotfiles: 'deny',
    preCompressed: true,
  });

  const notFound = (reply: FastifyReply) =>
    reply.code(404).header('cache-control', 'private, no-cache').sendFile('404.html');

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: (request, reply) => {
      const [pathname = '/', query] = request.url.split(/\?(.*)/s);
      if (gated && !isAllowed(request.viewer)) {
        const status = request.viewer.state === 'signed-in' ? 403 : 401;
        return options.sendSignInPage(request, reply, { status, returnPath: safeReturnPath(request.url) });
      }
      const resolution = resolveSitePath(pathname, options.files());
      switch (resolution.kind) {
        case 'file':
          return reply
            .header('cache-control', cacheControlFor(resolution.file))
            .header('vary', 'Accept-Encoding')
            .sendFile(resolution.file.slice(1));
        case 'redirect':
          return reply
            .header('cache-control', 'no-store')
            .redirect(query ? `${resolution.location}?${query}` : resolution.location, 301);
        case 'bad-request':
          return sendApiError(reply, 'bad_request:path', resolution.reason);
        case 'not-found':
          return notFound(reply);
      }
    },
  });
}
