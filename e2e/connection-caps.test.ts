import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { rawConnection } from './raw-connection';

/**
 * The caps on open connections, against the real server over real sockets: one address (another loopback address is
 * another client) may hold only so many, a trusted proxy's are not counted, and the server holds only so many in all.
 * A connection past a cap is closed before anything is answered; those already open go on being served.
 */
const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
/** A bound for failing: a connection the server keeps is still open then (its headers timeout is 20 s). */
const giveUpAfterMs = 5_000;

/** A connection from `source` whose first request was answered and that the server keeps alive. */
async function servedConnection(server: TestServer, source: string) {
  const connection = rawConnection(server.baseUrl, { localAddress: source, giveUpAfterMs });
  connection.socket.write(request);
  await expect.poll(connection.statuses).toEqual([200]);
  return connection;
}

/** What a new connection from `source` is answered to one request: nothing when the server closed it unanswered. */
async function answerToNewConnection(server: TestServer, source: string) {
  const connection = rawConnection(server.baseUrl, { localAddress: source, giveUpAfterMs });
  connection.socket.write(request);
  const answered = new Promise<void>((resolve) => connection.socket.on('data', () => resolve()));
  await Promise.race([answered, connection.closedAfterMs]);
  const closed = connection.socket.destroyed || connection.socket.readableEnded;
  connection.socket.destroy();
  return { statuses: connection.statuses(), closed };
}

const refused = { statuses: [], closed: true };
const served = { statuses: [200], closed: false };

describe('the cap on connections per address (MAX_CONNECTIONS_PER_ADDRESS)', () => {
  let server: TestServer;
  const proxy = '127.0.0.4';

  beforeAll(async () => {
    server = await startServer({ MAX_CONNECTIONS_PER_ADDRESS: '3', TRUST_PROXY: proxy });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('closesConnectionsPastTheCap of one address while its open ones and other addresses are served', async () => {
    const held = await Promise.all([1, 2, 3].map(() => servedConnection(server, '127.0.0.2')));
    expect(await answerToNewConnection(server, '127.0.0.2')).toEqual(refused);
    held[0]?.socket.write(request);
    await expect.poll(() => held[0]?.statuses()).toEqual([200, 200]);
    expect(await answerToNewConnection(server, '127.0.0.3')).toEqual(served);
    // One closed, one more is let in.
    held[1]?.socket.destroy();
    await expect.poll(() => answerToNewConnection(server, '127.0.0.2')).toEqual(served);
    for (const connection of held) connection.socket.destroy();
  });

  it('exemptsTheTrustedProxyAlone (TRUST_PROXY): behind a balancer every connection comes from it', async () => {
    const fromProxy = await Promise.all([1, 2, 3, 4, 5].map(() => servedConnection(server, proxy)));
    expect(await answerToNewConnection(server, proxy)).toEqual(served);
    const fromOther = await Promise.all([1, 2, 3].map(() => servedConnection(server, '127.0.0.3')));
    expect(await answerToNewConnection(server, '127.0.0.3')).toEqual(refused);
    for (const connection of [...fromProxy, ...fromOther]) connection.socket.destroy();
  });
});

describe('the cap on connections in all (MAX_CONNECTIONS)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ MAX_CONNECTIONS: '4', TRUST_PROXY: '127.0.0.5' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('closesConnectionsPastTheTotal from any address, the trusted proxy included, and then the idle ones to make room', async () => {
    // Two kept alive with nothing asked, two in the middle of a request (its headers not yet ended).
    const idle = await Promise.all(['127.0.0.2', '127.0.0.3'].map((source) => servedConnection(server, source)));
    const busy = ['127.0.0.2', '127.0.0.3'].map((source) => {
      const connection = rawConnection(server.baseUrl, { localAddress: source, giveUpAfterMs });
      connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      return connection;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await answerToNewConnection(server, '127.0.0.5')).toEqual(refused);
    // The refused one made the idle ones give way: the next reader gets in, the requests under way go on.
    await expect
      .poll(() => idle.every((connection) => connection.socket.destroyed || connection.socket.readableEnded))
      .toBe(true);
    await expect.poll(() => answerToNewConnection(server, '127.0.0.5')).toEqual(served);
    busy[0]?.socket.write('\r\n');
    await expect.poll(() => busy[0]?.statuses()).toEqual([200]);
    for (const connection of [...idle, ...busy]) connection.socket.destroy();
  });
});
