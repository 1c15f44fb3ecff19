import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { listSiteFiles, resolveSitePath } from './site-files.js';

const hashedAsset = /^\/assets\//;

function cacheControlFor(file: string): string {
  if (hashedAsset.test(file)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** Serves the built Docusaurus site: clean URLs, .html redirects, the site's own 404 page. */
export async function siteRoutes(app: FastifyInstance, options: { siteDirectory: string }) {
  const files = listSiteFiles(options.siteDirectory);
  if (!files.has('/404.html')) {
    throw new Error(`${options.siteDirectory} has no 404.html: build the site first (npm run build).`);
  }
  await app.register(fastifyStatic, {
    root: options.siteDirectory,
    serve: false,
    cacheControl: false,
    dotfiles: 'deny',
  });

  const notFound = (reply: FastifyReply) => reply.code(404).header('cache-control', 'no-cache').sendFile('404.html');

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: (request, reply) => {
      const [pathname = '/', query] = request.url.split(/\?(.*)/s);
      const resolution = resolveSitePath(pathname, files);
      switch (resolution.kind) {
        case 'file':
          return reply.header('cache-control', cacheControlFor(resolution.file)).sendFile(resolution.file.slice(1));
        case 'redirect':
          return reply.redirect(query ? `${resolution.location}?${query}` : resolution.location, 301);
        case 'bad-request':
          return reply.code(400).send({ error: { code: 'bad_request:path', message: resolution.reason } });
        case 'not-found':
          return notFound(reply);
      }
    },
  });
}
