import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store } from '../store/database.js';
import { sessions } from '../store/schema.js';
import { runOperations } from './operations.js';

const config = {
  databaseUrl: undefined,
  maintenanceIntervalMs: 3_600_000,
  databaseTimeouts: { connectSeconds: 5, querySeconds: 5 },
  metrics: undefined,
  questionLogDays: 90,
  sessionIdleTimeoutMs: 7 * 86_400_000,
};

/** An app with only the operations on it, its log lines kept as parsed JSON. */
async function appWithOperations(store: Store) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  runOperations(app, { config, store, metrics: undefined, buildLoadedAt: () => Date.now() });
  await app.ready();
  return { app, lines };
}

let store: Store | undefined;
afterEach(async () => {
  await store?.close().catch(() => {});
});

describe('scheduled maintenance in the server', () => {
  it('runs once at start and logs one line with what it removed', async () => {
    store = await openStore({ dataDirectory: inMemoryDataDirectory });
    await store.db.insert(sessions).values({
      idHash: 'expired',
      issuer: 'https://accounts.acme.dev',
      subject: 'ada',
      email: 'ada@acme.dev',
      emailVerified: true,
      expiresAt: new Date(Date.now() - 1000),
    });
    const { app, lines } = await appWithOperations(store);
    await expect.poll(() => lines.filter((line) => line.msg === 'maintenance')).toHaveLength(1);
    expect(lines.find((line) => line.msg === 'maintenance')).toMatchObject({
      level: 30,
      removed: { expired_sessions: 1, old_questions: 0 },
      ms: expect.any(Number),
    });
    await app.close();
    expect(await store.db.select().from(sessions)).toEqual([]);
  });

  it('logs a round whose queries fail as an error, and the server carries on and closes', async () => {
    store = await openStore({ dataDirectory: inMemoryDataDirectory });
    await store.close();
    const { app, lines } = await appWithOperations(store);
    await expect.poll(() => lines.find((line) => line.msg === 'maintenance partly failed')).toBeDefined();
    expect(lines.find((line) => line.msg === 'maintenance partly failed')).toMatchObject({
      level: 50,
      removed: {},
      failed: { expired_sessions: expect.stringContaining('PGlite is closed') },
    });
    expect((await app.inject({ url: '/nothing-here' })).statusCode).toBe(404);
    await app.close();
  });
});
