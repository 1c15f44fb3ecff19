import { Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../../test-support/test-databases.js';
import { createPostgresClient } from './postgres-client.js';
import { isDatabaseUnavailable } from './unavailable.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createPostgresTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

it('answers a transaction that finds no free connection at the wait deadline, and never runs it later', async () => {
  // A pool of one, held by a query that runs 2.5 s; the wait for a connection may last 1 s.
  const client = createPostgresClient(
    database.options.databaseUrl ?? '',
    { connectSeconds: 5, querySeconds: 1 },
    {
      max: 1,
    },
  );
  try {
    await client.unsafe('set statement_timeout = 5000');
    const holding = client.unsafe('select pg_sleep(2.5)').then(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    let ran = false;
    const started = performance.now();
    const waiting = client.begin(async (transaction) => {
      ran = true;
      await transaction`select 1`;
    });
    const error = await waiting.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    const waitedMs = performance.now() - started;
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(waitedMs).toBeGreaterThan(900);
    expect(waitedMs).toBeLessThan(2000);
    await holding;
    // The connection came free after the caller was answered: the abandoned transaction rolled back unrun.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toBe(false);
    // And the pool serves transactions again.
    expect(await client.begin(async (transaction) => (await transaction`select 2 as two`)[0]?.two)).toBe(2);
  } finally {
    await client.end({ timeout: 1 });
  }
});

it('fails a query on a held connection whose socket closed, not the process (porsager/postgres#1154, #1208)', async () => {
  // postgres.js 3.4.9 sends a small message on the next turn of the event loop; on a connection whose socket had
  // closed it then wrote to null, outside any promise, and the process ended (a review: PostgreSQL restarted under
  // load). patches/postgres+3.4.9.patch fails the query instead, as the driver fails any query on a closed connection.
  const sockets: Socket[] = [];
  const client = postgres(database.options.databaseUrl ?? '', {
    max: 1,
    onnotice: () => {},
    socket: ({ host, port }: { host: string[]; port: number[] }) => {
      const socket = new Socket();
      socket.connect(port[0] ?? 5432, host[0] ?? 'localhost');
      sockets.push(socket);
      return socket;
    },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  try {
    // A connection held for a while (as a transaction holds one), whose socket closes between two of its queries.
    const held = await client.reserve();
    await held`select 1`;
    sockets.at(-1)?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const outcome = await held`select 2`.then(
      () => 'answered',
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(outcome).toBe('CONNECTION_CLOSED');
  } finally {
    await client.end({ timeout: 1 });
  }
});
