import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { type MaintenanceLock, openMaintenanceLock, soleInstanceLock } from '../store/maintenance-lock.js';
import { countActiveSessions } from '../store/sessions.js';
import { type MaintenanceReport, maintenanceTasks, runMaintenance, scheduleRounds } from './maintenance.js';
import type { Metrics } from './metrics.js';
import { listenForScrapes } from './metrics-listener.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's metrics when METRICS_PORT is set (`loadMetrics`), else undefined. */
    metrics: Metrics | undefined;
  }
}

export type OperationsOptions = {
  config: Pick<
    Config,
    | 'databaseUrl'
    | 'databaseTimeouts'
    | 'maintenanceIntervalMs'
    | 'metrics'
    | 'questionLogDays'
    | 'sessionIdleTimeoutMs'
  >;
  store: Store;
  metrics: Metrics | undefined;
  /** When the site build being served was swapped in (ms since the epoch). */
  buildLoadedAt: () => number;
};

/**
 * The metrics when METRICS_PORT is set, else none: prom-client (about 25 ms and 10 MB) is loaded only then, and a
 * server without metrics takes no measurement on its requests.
 */
export async function loadMetrics(config: Pick<Config, 'metrics' | 'model'>): Promise<Metrics | undefined> {
  if (!config.metrics) return undefined;
  const { createMetrics } = await import('./metrics.js');
  return createMetrics({ mode: config.model ? 'model' : 'docs-only' });
}

/** Active sessions are counted at most this often, however often Prometheus scrapes. */
const activeSessionsTtlMs = 15_000;

/**
 * What keeps the server fit to run for months: the scheduled maintenance and, when METRICS_PORT is set, the metrics
 * and their listener. Its error hook is the instance's own, so it covers every route.
 */
export function runOperations(app: FastifyInstance, options: OperationsOptions) {
  scheduleMaintenance(app, options);
  if (options.metrics) watchForMetrics(app, options, options.metrics);
}

/** `runOperations` on the server's own store, metrics and site. */
export const operationsPlugin = fp(
  async (app) => {
    const { config, store, metrics, site } = app;
    runOperations(app, { config, store, metrics, buildLoadedAt: () => site.current().loadedAt });
  },
  {
    name: 'operations',
    fastify: '5.x',
    dependencies: ['store', 'site'],
    decorators: { fastify: ['config', 'metrics', 'store', 'site'] },
  },
);

function scheduleMaintenance(app: FastifyInstance, { config, store, metrics }: OperationsOptions) {
  // Instances sharing PostgreSQL take turns; the embedded database has one server.
  const lock: MaintenanceLock =
    store.kind === 'postgres' && config.databaseUrl
      ? openMaintenanceLock(config.databaseUrl, config.databaseTimeouts)
      : soleInstanceLock;
  const tasks = maintenanceTasks(store.db, config);
  const rounds = scheduleRounds(config.maintenanceIntervalMs, async () => {
    const report = await runMaintenance(lock, tasks);
    logMaintenance(app, report);
    if (!metrics) return;
    const outcome = report.outcome === 'ran' && hasFailures(report) ? 'failed' : report.outcome;
    metrics.maintenanceRuns.inc({ outcome });
    if (outcome === 'failed') metrics.countDatabaseError('maintenance');
    if (report.outcome !== 'ran') return;
    for (const [what, count] of Object.entries(report.removed)) metrics.maintenanceRemoved.inc({ what }, count);
  });
  app.addHook('onReady', async () => rounds.start());
  app.addHook('onClose', async () => {
    // The lock's connection ends first: a round waiting on an unreachable database then fails at once, not after
    // the connect timeout; a round deleting rows is let finish, before the store closes.
    const stopped = rounds.stop();
    await lock.close();
    await stopped;
  });
}

const hasFailures = (report: Extract<MaintenanceReport, { outcome: 'ran' }>) => Object.keys(report.failed).length > 0;

/** One line per round with what it removed; a skipped round (another instance ran it) only at debug level. */
function logMaintenance(app: FastifyInstance, report: MaintenanceReport) {
  if (report.outcome === 'skipped') {
    app.log.debug('maintenance skipped: another instance holds this round');
  } else if (report.outcome === 'failed') {
    app.log.error({ reason: report.reason }, 'maintenance could not start; the next round tries again');
  } else if (hasFailures(report)) {
    app.log.error({ removed: report.removed, failed: report.failed, ms: report.ms }, 'maintenance partly failed');
  } else {
    app.log.info({ removed: report.removed, ms: report.ms }, 'maintenance');
  }
}

function watchForMetrics(app: FastifyInstance, { config, store, buildLoadedAt }: OperationsOptions, metrics: Metrics) {
  app.addHook('onError', function countDatabaseErrors(_request, _reply, error, done) {
    if (causedByDatabase(error)) metrics.countDatabaseError('request');
    done();
  });

  let activeSessions = { count: 0, at: Number.NEGATIVE_INFINITY };
  metrics.gaugeOnScrape('handbook_active_sessions', 'Sessions that can still sign a reader in', async () => {
    const now = Date.now();
    if (now - activeSessions.at < activeSessionsTtlMs) return activeSessions.count;
    try {
      const count = await countActiveSessions(store.db, {
        now: new Date(now),
        idleTimeoutMs: config.sessionIdleTimeoutMs,
      });
      activeSessions = { count, at: now };
    } catch (error) {
      metrics.countDatabaseError('metrics');
      app.log.warn({ reason: (error as Error).message }, 'could not count the active sessions for the metrics');
    }
    return activeSessions.count;
  });
  metrics.gaugeOnScrape(
    'handbook_site_build_age_seconds',
    'Seconds since the site build being served was swapped in',
    () => (Date.now() - buildLoadedAt()) / 1000,
  );

  const listenAt = config.metrics;
  if (!listenAt) return;
  let listener: Awaited<ReturnType<typeof listenForScrapes>> | undefined;
  app.addHook('onReady', async () => {
    listener = await listenForScrapes(metrics.registry, listenAt);
    app.log.info({ host: listenAt.host, port: listener.address().port }, 'metrics at /metrics');
  });
  app.addHook('onClose', async () => listener?.close());
}

/** Drizzle wraps every failed query, whatever the driver; the request's error may wrap that in turn. */
function causedByDatabase(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof DrizzleQueryError) return true;
  }
  return false;
}
