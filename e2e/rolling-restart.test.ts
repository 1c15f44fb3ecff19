import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { type Balancer, startBalancer } from './balancer';
import { freePort } from './harness';
import { type Instance, startInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * README's update procedure ("Run in production") under readers: two compiled instances on one PostgreSQL database
 * behind Debian's nginx with the deployed rules, restarted one by one with nothing between them but the new instance's
 * readiness. nginx must not hold the restarted instance out of the pool for the second one's stop.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-rolling-'));
// nginx's worker runs as another user and reads the deployed error pages (its 502 page, say) from here.
chmodSync(workDirectory, 0o755);
const ports: number[] = [];
let database: TestDatabase;
let balancer: Balancer;
const instances: Instance[] = [];

/** One instance on its fixed port (nginx's upstream names it), like a container that keeps its name. */
async function startHandbookInstance(index: number, balancerUrl: string) {
  return startInstance({
    port: ports[index] ?? 0,
    logFile: path.join(workDirectory, `instance-${index}.log`),
    environment: {
      NODE_ENV: 'test',
      PUBLIC_URL: balancerUrl,
      DATABASE_URL: database.options.databaseUrl ?? '',
      SESSION_SECRET: 'one-secret-for-every-instance-of-the-handbook',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
  });
}

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  ports.push(await freePort(), await freePort());
  const balancerPort = await freePort();
  const balancerUrl = `http://127.0.0.1:${balancerPort}`;
  instances.push(...(await Promise.all([0, 1].map((index) => startHandbookInstance(index, balancerUrl)))));
  balancer = await startBalancer({
    directory: path.join(workDirectory, 'nginx'),
    port: balancerPort,
    instances: ports.map((port) => `127.0.0.1:${port}`),
    // The development sign-in stands in for Google: it is restarted with the instance it lives on, so it gets its own.
    extraLocations: `location /dev-idp/ { proxy_pass http://127.0.0.1:${ports[1]}; include handbook-proxy-headers.conf; }`,
  });
}, 120_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  await database?.drop();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('a rolling restart behind nginx', () => {
  it('restarts both instances one by one, waiting only for readiness, without a failed request', async () => {
    const cookie = await sessionCookieFor(balancer.url, 'reads-through-an-update@acme.dev');
    const outcomes: Array<number | string> = [];
    let reading = true;
    const readers = ['/docs/', '/api/threads?status=regular'].flatMap((pathname) =>
      Array.from({ length: 2 }, async () => {
        while (reading) {
          try {
            const response = await fetch(`${balancer.url}${pathname}`, { headers: { cookie } });
            await response.arrayBuffer();
            outcomes.push(response.status);
          } catch (error) {
            outcomes.push((error as Error).message);
          }
        }
      }),
    );
    /** Resolves once the readers have had `count` more answers: each step of the restart happens under traffic. */
    const answersMore = async (count: number) => {
      const target = outcomes.length + count;
      while (outcomes.length < target) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await answersMore(20);

    const [first, second] = instances;
    expect(await first?.stop('SIGTERM')).toBe(0);
    await answersMore(20);
    // startInstance resolves once /readyz says the instance is ready: the one wait README's procedure has.
    instances[0] = await startHandbookInstance(0, balancer.url);
    expect(await second?.stop('SIGTERM')).toBe(0);
    await answersMore(50);
    instances[1] = await startHandbookInstance(1, balancer.url);
    await answersMore(20);
    reading = false;
    await Promise.all(readers);

    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual([]);
  }, 120_000);
});
