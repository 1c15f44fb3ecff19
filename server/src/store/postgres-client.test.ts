import { type AddressInfo, connect, createServer, Socket } from 'node:net';
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

it('fails the queries of a connection the database closes as it opens, not the process (a fault review)', async () => {
  // postgres.js asks a new connection for the database's array types right after sign-in, in a promise nothing
  // awaited: a connection closed at that moment (a restart, a failover, an idle-session killer under load) ended the
  // process with an unhandled rejection. A proxy closes every connection at its first ReadyForQuery; the client does
  // not ask for the types (createPostgresClient), so what is left is the query's own clean failure.
  const target = new URL(database.options.databaseUrl ?? '');
  const proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      // ReadyForQuery: 'Z', a length of 5, the transaction status.
      if (chunk.includes(Buffer.from([0x5a, 0, 0, 0, 5]))) {
        client.destroy();
        upstream.destroy();
      }
    });
    for (const socket of [client, upstream]) socket.on('error', () => {});
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const unhandled: unknown[] = [];
  const noteUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', noteUnhandled);
  const client = createPostgresClient(proxied.href, { connectSeconds: 2, querySeconds: 1 }, { max: 2 });
  try {
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.unsafe('select 1').then(
          () => 'answered',
          (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : String(error)),
        ),
      ),
    );
    expect(outcomes.every((outcome) => outcome === 'unavailable')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', noteUnhandled);
    await client.end({ timeout: 1 });
    await new Promise((resolve) => proxy.close(resolve));
  }
});
