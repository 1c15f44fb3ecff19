import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { keptSearchFolder } from '../search/kept-search.js';
import { inMemoryDataDirectory } from '../store/embedded-database.js';
import { followSite, type SiteFollower } from './site-follower.js';
import type { ReadSource } from './site-messages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built site as one snapshot (files, headers, sections, search index), swapped whole on a rebuild. */
    site: SiteFollower;
  }
}

function logSectionsSource(app: FastifyInstance, source: ReadSource) {
  if (source.prepared) return app.log.info('reading the search of the site build from its prepared file');
  const { reason, kept } = source;
  if (kept === 'read') return app.log.info({ reason }, 'reading the search of the site build kept in DATA_DIR');
  app.log.info({ reason }, 'indexing the pages of the site build (no usable prepared search)');
  if (typeof kept === 'object')
    app.log.warn({ reason: kept.notWritten }, 'the search of the site build could not be kept in DATA_DIR');
}

/**
 * Starts reading the build on another thread, so that the store opens meanwhile; `sitePlugin` takes it in. The first
 * search index is swapped in only once `holdFirstSearch` settles (tests of what answers while it is built).
 */
export function startReadingSite(app: FastifyInstance, holdFirstSearch?: Promise<unknown>): Promise<SiteFollower> {
  const reading = followSite(app.config.siteDirectory, {
    strictTransport: app.config.secureCookies,
    publicOrigin: app.config.publicUrl.origin,
    onSwapped: (snapshot) => app.log.info({ fingerprint: snapshot.fingerprint }, 'serving a new site build'),
    onKeptPrevious: (reason) => app.log.warn({ reason }, 'keeping the previous site build'),
    onSectionsSource: (source) =>
      'unchanged' in source
        ? app.log.info('keeping the search of the site build served: its pages are the same')
        : logSectionsSource(app, source),
    holdFirstSearch,
    keptSearchDirectory:
      app.config.dataDirectory === inMemoryDataDirectory
        ? undefined
        : path.join(app.config.dataDirectory, keptSearchFolder),
    onWatcherStopped: (restartInMs) =>
      app.log.warn({ restartInMs }, 'the thread watching the site build stopped; starting it again'),
  });
  // It may fail while the store is still opening, before the plugin awaits it: that is no unhandled rejection.
  reading.catch(() => {});
  return reading;
}

/** The snapshot being read (`startReadingSite`), closed with the server; every answer carries its security headers. */
export const sitePlugin = fp<{ reading: Promise<SiteFollower> }>(
  async (app, { reading }) => {
    const site = await reading;
    app.addHook('onClose', async () => site.close());
    app.decorate('site', site);
    app.addHook('onRequest', function sendSecurityHeaders(_request, reply, done) {
      reply.headers(site.current().securityHeaders);
      done();
    });
  },
  { name: 'site', fastify: '5.x', decorators: { fastify: ['config'] } },
);
