import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { zodSerialized } from '../response-schemas.js';
import { searchIsReady } from '../search/search-being-built.js';
import type { Store } from '../store/database.js';
import { watchWriteFailures } from './write-failures.js';

/** A readiness probe gives up on the database after this; Docker's HEALTHCHECK allows 3 s for the whole probe. */
const databaseCheckMs = 2000;

type Check = 'ok' | string;

/** What the probes answer; a check is `ok` or says in a few words what failed. */
const liveness = zodSerialized({ response: { 200: z.strictObject({ status: z.literal('ok') }) } });
/** Neither probe asks who is asking: a cookie it carries is not looked up (request-access.ts). */
const sessionless = { sessionless: true };
const readiness = z.strictObject({
  status: z.enum(['ready', 'unavailable']),
  checks: z.strictObject({ database: z.string(), storage: z.string(), site: z.string() }),
  /** Whether the first search index is in; not a check: pages are served meanwhile, search answers 503. */
  search: z.enum(['ready', 'indexing']),
});

/**
 * `/healthz`: the process answers (liveness; restarting it would not help a database outage). `/readyz`: it can serve
 * readers now: the database answers a trivial query within two seconds, no write was refused for lack of space in
 * the last minute, and a site build is loaded. Neither needs a session, and neither says more than which check
 * failed. While the server shuts down it takes no new connections. The write failures are watched by a hook of the
 * instance `app`, which Fastify runs for every route of it and of its plugins.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  options: { store: Store; siteLoaded: () => boolean; searchIndexed?: () => boolean; now?: () => number },
) {
  const writeFailures = watchWriteFailures(app, options.now);
  app.get('/healthz', { ...liveness, config: sessionless }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  // Probes that arrive while one is asking the database share its answer: a flood of them (no session is needed)
  // costs the database one query at a time, not one each.
  let running: Promise<Check> | undefined;
  const databaseCheck = () => {
    running ??= checkDatabase(options.store)
      .catch((error: unknown) => {
        app.log.warn({ reason: (error as Error).message }, 'readiness: the database did not answer');
        return 'unreachable';
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const readinessRoute = { ...zodSerialized({ response: { 200: readiness, 503: readiness } }), config: sessionless };
  app.get('/readyz', readinessRoute, async (_request, reply) => {
    const checks: Record<'database' | 'storage' | 'site', Check> = {
      database: await databaseCheck(),
      storage: writeFailures.check(),
      site: options.siteLoaded() ? 'ok' : 'no build loaded',
    };
    const ready = Object.values(checks).every((check) => check === 'ok');
    return reply
      .header('cache-control', 'no-store')
      .code(ready ? 200 : 503)
      .send({
        status: ready ? 'ready' : 'unavailable',
        checks,
        search: (options.searchIndexed?.() ?? true) ? 'ready' : 'indexing',
      });
  });
}

/** The probes on the server's own store and site, on the instance itself (no encapsulation): every hook applies. */
export const healthPlugin = fp(
  async (app) => {
    const { store, site } = app;
    registerHealthRoutes(app, {
      store,
      siteLoaded: () => site.current().files.size > 0,
      searchIndexed: () => searchIsReady(site.current().search),
    });
  },
  { name: 'health', fastify: '5.x', dependencies: ['store', 'site'], decorators: { fastify: ['store', 'site'] } },
);

async function checkDatabase(store: Store): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${databaseCheckMs / 1000} s`), databaseCheckMs);
  });
  try {
    return await Promise.race([store.ping().then((): Check => 'ok'), late]);
  } finally {
    clearTimeout(timer);
  }
}
