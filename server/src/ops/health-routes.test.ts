import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store } from '../store/database.js';
import { registerHealthRoutes } from './health-routes.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function appWith(store: Store, siteLoaded = true) {
  const app = Fastify();
  registerHealthRoutes(app, { store, siteLoaded: () => siteLoaded });
  apps.push(app);
  return app;
}

/** A "database" that accepts connections and never says a word. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('/healthz and /readyz', () => {
  it('are ready when the database answers and a build is loaded, never cached', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    const app = appWith(store);

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', site: 'ok' },
      search: 'ready',
    });
    await store.close();
  });

  it('asks the database once for probes that arrive together, and again for the next', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    let pings = 0;
    const ping = () => {
      pings += 1;
      return store.ping();
    };
    const counted: Store = { ...store, ping };
    const app = appWith(counted);

    const together = await Promise.all(Array.from({ length: 20 }, () => app.inject('/readyz')));
    expect(together.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    expect(pings).toBe(1);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    expect(pings).toBe(2);
    await store.close();
  });

  it('sayNotReadyWhenTheDatabaseFails, while the process stays live', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    await store.close();
    const app = appWith(store);

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'unreachable', storage: 'ok', site: 'ok' },
      search: 'ready',
    });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('sayNotReadyWithinTwoSecondsWhenTheDatabaseNeverAnswers', async () => {
    const silent = await silentServer();
    const store = await openStore({
      databaseUrl: `postgres://postgres@127.0.0.1:${silent.port}/handbook`,
      dataDirectory: inMemoryDataDirectory,
      migrate: false,
      timeouts: { connectSeconds: 30, querySeconds: 30 },
    });
    const app = appWith(store);

    const started = performance.now();
    const ready = await app.inject('/readyz');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('no answer within 2 s');
    // Once the connection attempt has failed, closing the store need not wait for it. The failure reaches postgres.js
    // on its own socket, which nothing here can listen to: a real wait (without it the close takes its full 5 s).
    await silent.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.close();
  });

  it('saysTheSearchIsIndexingWithoutMakingTheServerUnready: pages are served meanwhile', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    const indexing = Fastify({ logger: false });
    registerHealthRoutes(indexing, { store, siteLoaded: () => true, searchIndexed: () => false });
    const ready = await indexing.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', search: 'indexing' });
    await indexing.close();
    await store.close();
  });

  it('sayNotReadyWithoutASiteBuild', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    const ready = await appWith(store, false).inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toEqual({ database: 'ok', storage: 'ok', site: 'no build loaded' });
    await store.close();
  });

  it('reportsNotReadyWhileWritesFailForAFullDisk, for a minute after the last one, and ready again after', async () => {
    const store = await openStore({ dataDirectory: inMemoryDataDirectory });
    let clock = Date.parse('2026-11-26T12:00:00Z');
    const app = Fastify();
    apps.push(app);
    registerHealthRoutes(app, { store, siteLoaded: () => true, now: () => clock });
    // A write as the database refuses it when its disk is full: PostgreSQL's own disk_full error, through Drizzle.
    app.post('/write', async () => {
      await store.db.execute(sql`do $$ begin raise exception 'could not extend file: No space left on device'
        using errcode = 'disk_full'; end $$`);
    });
    app.post('/bad-write', async () => {
      await store.db.execute(sql`select 1 / 0`);
    });

    expect((await app.inject({ method: 'POST', url: '/bad-write' })).statusCode).toBe(500);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/write' })).statusCode).toBe(500);
    clock += 5_000;

    const failing = await app.inject('/readyz');
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', storage: 'writes failing: no space left (5 s ago)', site: 'ok' },
      search: 'ready',
    });
    clock += 60_000;
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    await store.close();
  });
});
