import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiErrorBody } from '@acme/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases';
import { copilotClient } from './ask-fixtures';
import { type Balancer, startBalancer } from './balancer';
import { freePort } from './harness';
import { type Instance, startInstance } from './instance-process';
import { type OutageProxy, startOutageProxy } from './outage-proxy';
import { sessionCookieFor } from './sign-in';

/**
 * compose.yaml's topology as processes: two compiled instances on one throwaway PostgreSQL database, behind Debian's
 * nginx with the deployed proxy rules (deploy/nginx/). Readers sign in, read and ask through the balancer only.
 */
const questionsPerMinute = 6;
/** Each instance's database timeouts; a request in an outage ends within README's bound (timeout + 1 s) and a margin. */
const databaseTimeoutSeconds = 2;
const outageBoundMs = (databaseTimeoutSeconds + 2 + 1.5) * 1000;
const sessionSecret = 'one-secret-for-every-instance-of-the-handbook';
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-balanced-'));
let database: TestDatabase;
let balancer: Balancer;
/** Between both instances and PostgreSQL, as a network between them would be. */
let databaseProxy: OutageProxy;
const instances: Instance[] = [];

async function startHandbookInstance(name: string, balancerUrl: string, databaseUrl: string) {
  return startInstance({
    port: await freePort(),
    logFile: path.join(workDirectory, `${name}.log`),
    environment: {
      NODE_ENV: 'test',
      PUBLIC_URL: balancerUrl,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: sessionSecret,
      TRUST_PROXY: '127.0.0.1',
      ASK_REQUESTS_PER_MINUTE: String(questionsPerMinute),
      DATABASE_CONNECT_TIMEOUT_SECONDS: String(databaseTimeoutSeconds),
      DATABASE_QUERY_TIMEOUT_SECONDS: String(databaseTimeoutSeconds),
      LOG_LEVEL: 'info',
    },
  });
}

/**
 * Each instance answers questions once its first search index is in (503 unavailable:search before, by design). The
 * balancer takes turns, so four searches answered in a row have reached both.
 */
async function untilBothInstancesSearch(cookie: string) {
  let answeredInARow = 0;
  for (let attempt = 0; attempt < 300 && answeredInARow < 4; attempt += 1) {
    const response = await fetch(`${balancer.url}/api/search?q=wsl`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status === 200) answeredInARow += 1;
    else {
      expect(response.status).toBe(503);
      answeredInARow = 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  expect(answeredInARow).toBe(4);
}

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const target = new URL(database.options.databaseUrl ?? '');
  databaseProxy = await startOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const databaseUrl = databaseProxy.databaseUrl(target.href);
  const balancerPort = await freePort();
  const balancerUrl = `http://127.0.0.1:${balancerPort}`;
  instances.push(
    ...(await Promise.all(['first', 'second'].map((name) => startHandbookInstance(name, balancerUrl, databaseUrl)))),
  );
  balancer = await startBalancer({
    directory: path.join(workDirectory, 'nginx'),
    port: balancerPort,
    instances: instances.map((instance) => `127.0.0.1:${instance.port}`),
    // The development sign-in stands in for Google: one provider outside the instances, so it lives on one of them.
    extraLocations: `location /dev-idp/ { proxy_pass ${instances[0]?.url}; include handbook-proxy-headers.conf; }`,
  });
}, 120_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  await databaseProxy?.close();
  await database?.drop();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** The requests an instance logged for this path and status; the log is written asynchronously, so wait a little. */
async function answeredBy(instance: Instance, pathname: string, status: number) {
  let count = 0;
  for (let attempt = 0; attempt < 40 && count === 0; attempt += 1) {
    count = instance.logLines().filter((line) => line.path === pathname && line.status === status).length;
    if (count === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return count;
}

describe('two instances behind nginx on one PostgreSQL database', () => {
  it('signs a reader in through the balancer, and both instances serve that session', async () => {
    const cookie = await sessionCookieFor(balancer.url, 'balanced@acme.dev');
    const statuses = [];
    for (let request = 0; request < 8; request += 1) {
      const response = await fetch(`${balancer.url}/firestore-ttl`, { headers: { cookie, accept: 'text/html' } });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array(8).fill(200));
    for (const instance of instances) expect(await answeredBy(instance, '/firestore-ttl', 200)).toBeGreaterThan(0);
  });

  it('answers questions on both instances and counts one limit of questions a minute across them', async () => {
    const cookie = await sessionCookieFor(balancer.url, 'asks-a-lot@acme.dev');
    await untilBothInstancesSearch(cookie);
    const copilot = copilotClient(balancer.url, cookie);
    const ask = () =>
      copilot.ask({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I use WSL?' }], attachments: [] }],
      });
    const statuses = [];
    for (let question = 0; question < questionsPerMinute; question += 1) {
      const response = await ask();
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual(Array(questionsPerMinute).fill(200));
    for (const instance of instances) expect(await answeredBy(instance, '/api/askAi', 200)).toBeGreaterThan(0);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = (await refused.json()) as ApiErrorBody;
    expect(error.code).toBe('rate_limited:ask');
  });

  it('tells readers to retry during a database outage, on every instance, and recovers without a restart', async () => {
    const cookie = await sessionCookieFor(balancer.url, 'through-an-outage@acme.dev');
    const timed = async (pathname: string, headers: Record<string, string>) => {
      const started = performance.now();
      const response = await fetch(`${balancer.url}${pathname}`, {
        headers,
        signal: AbortSignal.timeout(outageBoundMs + 5000),
      });
      return { response, body: await response.text(), ms: performance.now() - started };
    };
    await databaseProxy.outage('reset');
    // Enough requests that nginx hands some to each instance; each needs the database (the reader's threads).
    const during = await Promise.all(
      Array.from({ length: 6 }, () => timed('/api/threads?status=regular', { cookie, accept: 'application/json' })),
    );
    // A session cookie with our tag, for an id no session has: only the database can tell.
    const unknownSession = sessionCookieCodec(sessionSecret).valueOf(newSessionId());
    const page = await timed('/firestore-ttl', { cookie: `acme_session=${unknownSession}`, accept: 'text/html' });
    expect(during.map((answer) => answer.response.status)).toEqual(Array(6).fill(503));
    for (const answer of during) {
      expect(answer.response.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unavailable:database' } });
      expect(answer.ms).toBeLessThan(outageBoundMs);
    }
    expect(page.response.status).toBe(503);
    expect(page.body).toContain('The handbook is unavailable for a moment');
    expect(page.body).not.toMatch(/select|insert|postgres|acme_session/i);
    for (const instance of instances) expect(await answeredBy(instance, '/api/threads', 503)).toBeGreaterThan(0);

    await databaseProxy.restore();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100 && statuses.at(-1) !== 200; attempt += 1) {
      statuses.push((await timed('/api/threads?status=regular', { cookie })).response.status);
      if (statuses.at(-1) !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses.at(-1)).toBe(200);
    // Every following request is served, by whichever instance nginx picks.
    const after = await Promise.all(
      Array.from({ length: 6 }, () => timed('/api/threads?status=regular', { cookie, accept: 'application/json' })),
    );
    expect(after.map((answer) => answer.response.status)).toEqual(Array(6).fill(200));
  }, 60_000);

  it('stops one instance under traffic without a failed request', async () => {
    const cookie = await sessionCookieFor(balancer.url, 'keeps-reading@acme.dev');
    const outcomes: Array<number | string> = [];
    let reading = true;
    const readers = Array.from({ length: 6 }, async () => {
      while (reading) {
        try {
          const response = await fetch(`${balancer.url}/firestore-ttl`, { headers: { cookie, accept: 'text/html' } });
          await response.arrayBuffer();
          outcomes.push(response.status);
        } catch (error) {
          outcomes.push((error as Error).message);
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [, stopped] = instances;
    const exitCode = await stopped?.stop('SIGTERM');
    const servedWhenStopped = outcomes.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    reading = false;
    await Promise.all(readers);
    expect(exitCode).toBe(0);
    expect(outcomes.length).toBeGreaterThan(servedWhenStopped);
    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual([]);
  });
});
