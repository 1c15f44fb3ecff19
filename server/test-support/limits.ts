import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';

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
 * port: a network outage between the app and its database, for a few seconds. Or freeze: connections stay open and
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
    get port() {
      return port;
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
