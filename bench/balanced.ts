/**
 * compose.yaml's topology as processes (two compiled instances on one PostgreSQL database behind Debian's nginx with
 * the deployed proxy rules): the requests lost when an instance is stopped or killed under load, and how long the
 * instances take to answer again after a database outage. Prints figures only; it never fails on a number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Balancer, startBalancer } from '../e2e/balancer';
import { type Instance, startInstance } from '../e2e/instance-process';
import { sessionCookieFor } from '../e2e/sign-in';
import { createPostgresTestDatabase } from '../server/test-support/test-databases';
import { countResponses } from './load';
import { ensureCompiledServer } from './server-process';
import { docPageUrlPath } from './site-copies';

await ensureCompiledServer();
const { freePort, siteBuildDirectory } = await import('../e2e/harness');
const { startOutageProxy } = await import('../e2e/outage-proxy');
const docPage = docPageUrlPath(siteBuildDirectory);
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-balanced-bench-'));
const row = (label: string, value: string) => console.log(`  ${label.padEnd(44)}${value}`);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const database = await createPostgresTestDatabase();
const databaseUrl = new URL(database.options.databaseUrl ?? '');
const outage = await startOutageProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
const balancerPort = await freePort();
const balancerUrl = `http://127.0.0.1:${balancerPort}`;
const instances: Instance[] = [];
let balancer: Balancer | undefined;

async function startHandbook(name: string, port?: number) {
  const instance = await startInstance({
    port: port ?? (await freePort()),
    logFile: path.join(workDirectory, `${name}.log`),
    environment: {
      NODE_ENV: 'test',
      PUBLIC_URL: balancerUrl,
      DATABASE_URL: outage.databaseUrl(databaseUrl.href),
      SESSION_SECRET: 'one-secret-for-every-instance-of-the-handbook',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  });
  instances.push(instance);
  return instance;
}

/** Load on a page through the balancer while `during` runs; the responses counted by status. */
async function pageLoad(cookie: string, seconds: number, during: () => Promise<void>) {
  const running = autocannon({
    url: `${balancerUrl}${docPage}`,
    connections: 16,
    duration: seconds,
    headers: { cookie, accept: 'text/html', 'accept-encoding': 'gzip' },
  });
  await during();
  return countResponses([await running]);
}

async function instanceLeaves(cookie: string, signal: NodeJS.Signals) {
  const [, second] = instances;
  let exitCode: number | null | undefined;
  const counts = await pageLoad(cookie, 8, async () => {
    await sleep(3000);
    exitCode = await second?.stop(signal);
  });
  const lost = counts.responses - counts.ok + counts.socketErrors;
  row(
    `${signal} to one of two instances under load`,
    `${lost} of ${counts.responses} requests lost (exit ${exitCode ?? 'signal'}; ` +
      `${Object.entries(counts.notOkByStatus)
        .map(([status, count]) => `${count}x ${status}`)
        .join(', ')})`,
  );
  // Back on the same port, where the balancer looks for it.
  instances.splice(1, 1);
  if (second) await startHandbook(`second-again-${signal}`, second.port);
}

/** A database outage of `seconds`: what readers got meanwhile, and how soon after it an answer needs the database. */
async function databaseOutage(cookie: string, seconds: number) {
  const statuses = new Map<string, number>();
  let slowest = 0;
  const probe = async () => {
    const startedAt = performance.now();
    const response = await fetch(`${balancerUrl}/api/threads`, { headers: { cookie } }).catch(() => undefined);
    slowest = Math.max(slowest, performance.now() - startedAt);
    await response?.arrayBuffer();
    const key = String(response?.status ?? 'socket error');
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    return response?.status;
  };
  await outage.outage('refuse');
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    await probe();
    await sleep(100);
  }
  await outage.restore();
  const restoredAt = performance.now();
  let recoveredAfter: number | undefined;
  while (performance.now() - restoredAt < 60_000) {
    if ((await probe()) === 200) {
      recoveredAfter = performance.now() - restoredAt;
      break;
    }
    await sleep(50);
  }
  row(
    `during a ${seconds} s database outage`,
    `${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')}; slowest ${slowest.toFixed(0)} ms`,
  );
  row(
    'first stored-data answer after the outage',
    recoveredAfter === undefined ? 'none within 60 s' : `${recoveredAfter.toFixed(0)} ms after the database came back`,
  );
}

try {
  console.log('Balanced instances (two compiled instances on PostgreSQL behind nginx, deploy/nginx/)');
  await startHandbook('first');
  await startHandbook('second');
  balancer = await startBalancer({
    directory: path.join(workDirectory, 'nginx'),
    port: balancerPort,
    instances: instances.map((instance) => `127.0.0.1:${instance.port}`),
    extraLocations: `location /dev-idp/ { proxy_pass ${instances[0]?.url}; include handbook-proxy-headers.conf; }`,
  });
  const cookie = await sessionCookieFor(balancerUrl, 'bench@acme.dev');
  console.log(`\n1. An instance leaves under load (${docPage} through nginx, 16 connections, 8 s)`);
  await instanceLeaves(cookie, 'SIGTERM');
  await instanceLeaves(cookie, 'SIGKILL');
  console.log('\n2. A database outage (the instances reach PostgreSQL through a proxy that refuses every connection)');
  await databaseOutage(cookie, 10);
} finally {
  await balancer?.stop();
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  await outage.close();
  await database.drop();
  rmSync(workDirectory, { recursive: true, force: true });
}
