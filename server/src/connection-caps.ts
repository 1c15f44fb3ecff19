import { isIPv4, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Address4, Address6 } from 'ip-address';
import { addressKeyOf } from './auth/address-key.js';
import type { Config } from './config.js';
import { defaultMaxConnections, openFileLimit } from './open-file-limit.js';

/** At the total, how often the idle kept-alive connections are closed to make room. */
const idleClosingEveryMs = 100;
/** While connections keep being refused at the total, how often the log says so again. */
const totalWarningEveryMs = 60_000;

/** An address or a CIDR range as TRUST_PROXY lists it (config.ts has checked it reads as one). */
const rangeOf = (entry: string) => (isIPv4(entry.split('/')[0] ?? '') ? new Address4(entry) : new Address6(entry));

/** The forms an address is compared in: an IPv4-mapped IPv6 address (a dual-stack listener's) as itself and as IPv4. */
function formsOf(address: string): (Address4 | Address6)[] {
  if (isIPv4(address)) return [new Address4(address)];
  const address6 = new Address6(address);
  return address6.isMapped4() ? [address6, address6.to4()] : [address6];
}

/** Whether a connection's address is one of the trusted proxies' (TRUST_PROXY), as Fastify believes their headers. */
export function trustedProxyTest(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map(rangeOf);
  if (ranges.length === 0) return () => false;
  return (address) => formsOf(address).some((form) => ranges.some((range) => form.isHostInSubnet(range)));
}

/**
 * Call on the root instance. Without a balancer in front, a client that sends one cheap request keeps its connection
 * for the keep-alive timeout, and again after each request: left uncapped, one address could hold every descriptor the
 * process has, and the server could then open neither its database's files nor a rebuilt site. So one address (an IPv6
 * one by its /64, as the rate limits count) may hold MAX_CONNECTIONS_PER_ADDRESS connections, and all together
 * MAX_CONNECTIONS (node's `maxConnections`); a connection past either is closed as it arrives, before a byte of it is
 * read, while those already open go on being served. A trusted proxy's connections are not counted per address: behind
 * nginx every connection comes from nginx, which caps its readers' itself.
 */
export function capConnections(app: FastifyInstance, config: Pick<Config, 'connectionCaps' | 'trustedProxies'>) {
  const { perAddress, total: configuredTotal } = config.connectionCaps;
  const openFiles = openFileLimit();
  const total = configuredTotal ?? defaultMaxConnections(openFiles);
  if (openFiles !== undefined && total > openFiles / 2) {
    app.log.warn(
      { maxConnections: total, openFileLimit: openFiles },
      'MAX_CONNECTIONS is over half the open-file limit: connections could leave the database and a rebuilt site no file to open; raise the limit (ulimit -n, docker run --ulimit nofile=) or lower MAX_CONNECTIONS',
    );
  }
  app.server.maxConnections = total;
  let totalWarnedAt = Number.NEGATIVE_INFINITY;
  let idleClosedAt = Number.NEGATIVE_INFINITY;
  app.server.on('drop', () => {
    // At the total, connections kept alive with nothing asked on them give way: a few addresses holding their places
    // with one cheap request now and then would otherwise lock every other reader out. A reader's browser whose idle
    // connection closes opens another when it next asks. At most once per `idleClosingEveryMs`: it walks them all.
    if (performance.now() - idleClosedAt >= idleClosingEveryMs) {
      idleClosedAt = performance.now();
      app.server.closeIdleConnections();
    }
    if (performance.now() - totalWarnedAt < totalWarningEveryMs) return;
    totalWarnedAt = performance.now();
    app.log.warn(
      { maxConnections: total },
      'MAX_CONNECTIONS are open: a new connection was closed unanswered, and the idle kept-alive ones too',
    );
  });

  const isTrustedProxy = trustedProxyTest(config.trustedProxies);
  const openByAddress = new Map<string, number>();
  /** Addresses whose refusal is logged: once each, until their last connection closes. */
  const refused = new Set<string>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // Without an address the connection is already gone.
    if (address === undefined || isTrustedProxy(address)) return;
    const key = addressKeyOf(address);
    const open = openByAddress.get(key) ?? 0;
    if (open >= perAddress) {
      if (!refused.has(key)) {
        refused.add(key);
        app.log.warn(
          { address: key, maxConnectionsPerAddress: perAddress },
          'an address holds MAX_CONNECTIONS_PER_ADDRESS connections: its new ones are closed unanswered',
        );
      }
      socket.destroy();
      return;
    }
    openByAddress.set(key, open + 1);
    socket.once('close', () => {
      const left = (openByAddress.get(key) ?? 1) - 1;
      if (left > 0) {
        openByAddress.set(key, left);
      } else {
        openByAddress.delete(key);
        refused.delete(key);
      }
    });
  });
}
