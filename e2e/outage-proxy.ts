/**
 * A TCP proxy a test puts between the server and its PostgreSQL database, to cause an outage on cue and end it:
 *
 *   const proxy = await startOutageProxy({ port: 5432 });
 *   DATABASE_URL = proxy.databaseUrl(database.options.databaseUrl)
 *   await proxy.outage('blackhole');  // or 'refuse', 'reset', 'close'
 *   await proxy.restore();
 *   await proxy.close();
 *
 * The kinds of outage, each as a real failure looks from the client's side:
 * - `refuse`: the database is down (nothing listens: connections are refused; open ones are reset);
 * - `reset`: a balancer whose backend crashed (connections accepted, then reset; open ones are reset);
 * - `close`: a proxy whose backend is gone (connections accepted, then closed cleanly; open ones too);
 * - `blackhole`: the network drops everything (open connections and new ones stay open but carry nothing, in either
 *   direction). Connections caught in a black hole stay dead after `restore()`, as half-open connections whose
 *   peer is gone do: only the client can notice and drop them.
 */
import { createServer, type Server, Socket } from 'node:net';

export type OutageKind = 'refuse' | 'reset' | 'close' | 'blackhole';

export type OutageProxy = {
  /** The port the proxy listens on (127.0.0.1), the same across `refuse` and `restore()`. */
  port: number;
  /** `url` (a postgres:// URL) with its host and port replaced by the proxy's. */
  databaseUrl(url: string): string;
  /** Connections the proxy forwards right now. */
  forwarding(): number;
  outage(kind: OutageKind): Promise<void>;
  /** Forwards new connections again. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

type Pair = { client: Socket; upstream: Socket | undefined; dead: boolean };

export async function startOutageProxy(target: { host?: string; port: number }): Promise<OutageProxy> {
  const host = target.host ?? '127.0.0.1';
  let mode: 'forward' | OutageKind = 'forward';
  const pairs = new Set<Pair>();
  /** Every socket still open, forwarding or not, so that closing the proxy leaves none behind. */
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };

  const end = (pair: Pair, how: 'reset' | 'close') => {
    pairs.delete(pair);
    for (const socket of [pair.client, pair.upstream]) {
      if (!socket || socket.destroyed) continue;
      if (how === 'reset') socket.resetAndDestroy();
      else socket.end();
    }
  };

  const server: Server = createServer((client) => {
    track(client);
    const pair: Pair = { client, upstream: undefined, dead: false };
    pairs.add(pair);
    client.on('error', () => end(pair, 'reset'));
    client.on('close', () => end(pair, 'close'));
    // Read and drop what a dead connection carries, so the client never notices back-pressure either.
    client.on('data', (chunk) => pair.dead || pair.upstream?.write(chunk));
    if (mode === 'reset' || mode === 'close') return end(pair, mode);
    if (mode === 'blackhole') {
      pair.dead = true;
      return;
    }
    const upstream = new Socket();
    track(upstream);
    pair.upstream = upstream;
    upstream.on('data', (chunk) => pair.dead || client.write(chunk));
    upstream.on('error', () => end(pair, 'reset'));
    upstream.on('close', () => pair.dead || end(pair, 'close'));
    upstream.connect(target.port, host);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the outage proxy has no port');
  const port = address.port;

  return {
    port,
    databaseUrl(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    forwarding: () => [...pairs].filter((pair) => !pair.dead).length,
    async outage(kind) {
      mode = kind;
      if (kind === 'blackhole') {
        for (const pair of pairs) pair.dead = true;
        return;
      }
      for (const pair of [...pairs]) end(pair, kind === 'close' ? 'close' : 'reset');
      if (kind === 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restore() {
      if (mode === 'refuse') await listen(port);
      mode = 'forward';
    },
    async close() {
      mode = 'reset';
      for (const pair of [...pairs]) end(pair, 'reset');
      for (const socket of open) socket.resetAndDestroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
