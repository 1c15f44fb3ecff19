import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';

/** The test Redis; REDIS_TEST_URL points elsewhere. */
export const testRedisUrl = process.env.REDIS_TEST_URL || 'redis://127.0.0.1:6379';

/** A logger whose lines are kept, parsed, for a test to read. */
export function capturedLog() {
  const lines: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = pino({ level: 'info' }, stream);
  return {
    log,
    lines,
    warnings: () => lines.filter((line) => line.level === 40).map((line) => line.msg),
    infos: () => lines.filter((line) => line.level === 30).map((line) => line.msg),
  };
}

/** A key prefix no other test run uses, and how to delete every key under it afterwards. */
export function redisTestKeys() {
  const keyPrefix = `handbook-test:${randomBytes(6).toString('hex')}:`;
  return {
    keyPrefix,
    async keys() {
      const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
      try {
        return await redis.keys(`${keyPrefix}*`);
      } finally {
        redis.disconnect();
      }
    },
    async deleteAll(pattern = `${keyPrefix}*`) {
      const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
      try {
        const keys = await redis.keys(pattern);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** A loopback port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

/**
 * A TCP relay to a real server that a test can cut (every connection dropped, new ones refused) and restore on the same
 * port: a network outage between the app and its Redis, for a few seconds. Or freeze: connections stay open and
 * nothing more gets through either way, as when a route vanishes without a word.
 */
export async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = createConnection(target);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      for (const socket of pair) {
        sockets.add(socket);
        socket.on('close', () => {
          sockets.delete(socket);
          pairs.delete(pair);
        });
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') port = address.port;
  };
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  };
  await listen();
  return {
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    cut: stop,
    restore: listen,
    freeze() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: stop,
  };
}
