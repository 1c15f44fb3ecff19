import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { rawConnection as rawConnectionTo } from './raw-connection';
import { sessionCookieFor } from './sign-in';

/**
 * A request refused before its body was read (no session, a body over the route's limit) is answered with
 * `Connection: close` and its connection closed, so a stranger cannot make the server read and discard a body of
 * any size, or hold a socket by trickling one; and `100 Continue` is sent only once the gate has let the request in
 * and its body is wanted, so a stranger is never invited to send it. A signed-in reader's client that waits for
 * `100 Continue` (curl uploading a screenshot) still gets it at once.
 */
let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'silent' });
  cookie = await sessionCookieFor(server.baseUrl, 'uploader@acme.dev');
});

afterAll(() => server?.close());

/** Past this the server is taken to hold the connection for ever; it is a bound for failing, not a timing. */
const failAfterMs = 10_000;

/** A connection of our own, with the head of its first answer that is not `100 Continue`. */
function rawConnection() {
  const connection = rawConnectionTo(server.baseUrl, { giveUpAfterMs: failAfterMs });
  /** The head of the first answer that is not `100 Continue`, lower-cased; empty until it is in. */
  const finalHead = () => {
    const answer = connection.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    const end = answer.indexOf('\r\n\r\n');
    return end < 0 ? '' : answer.slice(0, end).toLowerCase();
  };
  const closed = connection.closedAfterMs.then((afterMs) => afterMs !== undefined);
  return { ...connection, finalHead, closed };
}

const head = (method: string, path: string, headers: string[]) =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');

/** The body a stranger declares: far more than any route reads. */
const declaredBytes = 200_000_000;
const spaces = Buffer.alloc(64 * 1024, ' ');

/** Streams spaces until the connection closes or the declared body is all sent; how many bytes went out. */
async function streamUntilClosed(connection: ReturnType<typeof rawConnection>) {
  let sent = 0;
  let isClosed = false;
  void connection.closed.then(() => {
    isClosed = true;
  });
  while (!isClosed && !connection.socket.destroyed && sent < declaredBytes) {
    sent += spaces.length;
    if (!connection.socket.write(spaces)) {
      await new Promise((resolve) => {
        connection.socket.once('drain', resolve);
        void connection.closed.then(resolve);
      });
    }
  }
  return sent;
}

/** Requests refused before their body is read, each with the status it gets. */
const refusedBeforeTheBody: [string, string, string[], number][] = [
  ['POST', '/api/askAi', ['Content-Type: application/json', 'Origin: http://127.0.0.1'], 401],
  ['GET', '/', ['Accept: text/html'], 401],
  ['POST', '/oauth/register', ['Content-Type: application/json'], 413],
  ['POST', '/api/no-such-api', ['Content-Type: application/json'], 404],
];

describe('a request refused before its body was read', () => {
  it.each(refusedBeforeTheBody)(
    'closesTheConnectionOfAStrangerStreamingAHugeBody: %s %s',
    async (method, path, headers, status) => {
      const connection = rawConnection();
      connection.socket.write(head(method, path, [...headers, `Content-Length: ${declaredBytes}`]));
      connection.socket.write(spaces);
      // The refusal needs none of the body: it comes while the stranger still has nearly all of it to send.
      await expect.poll(connection.finalHead, { timeout: failAfterMs }).not.toBe('');
      expect(connection.statuses()).toEqual([status]);
      expect(connection.finalHead()).toContain('\r\nconnection: close');

      const sent = await streamUntilClosed(connection);
      expect(await connection.closed, 'the server kept reading the body').toBe(true);
      expect(sent).toBeLessThan(declaredBytes);
    },
  );

  it.each([
    ['/api/askAi', ['Content-Type: application/json', 'Origin: http://127.0.0.1'], 401],
    ['/oauth/register', ['Content-Type: application/json'], 413],
    ['/api/no-such-api', ['Content-Type: application/json'], 404],
  ] as const)('sendsNo100ContinueToARequestItRefuses: POST %s', async (path, headers, status) => {
    const connection = rawConnection();
    connection.socket.write(head('POST', path, [...headers, 'Expect: 100-continue', 'Content-Length: 50000000']));

    expect(await connection.closed, 'the server kept the connection open').toBe(true);
    expect(connection.statuses()).toEqual([status]);
    expect(connection.finalHead()).toContain('\r\nconnection: close');
  });
});

describe('a signed-in reader whose client waits for 100 Continue', () => {
  it('gets100ContinueBeforeSendingTheBody, then the answer, on a connection kept open', async () => {
    const connection = rawConnection();
    const body = '{}';
    const headers = [
      `Cookie: ${cookie}`,
      `Origin: ${server.baseUrl}`,
      'Content-Type: application/json',
      'Expect: 100-continue',
      `Content-Length: ${body.length}`,
    ];
    connection.socket.write(head('POST', '/api/threads', headers));
    await expect.poll(connection.statuses, { timeout: failAfterMs }).toEqual([100]);

    connection.socket.write(body);
    await expect.poll(connection.finalHead, { timeout: failAfterMs }).not.toBe('');
    const [, status = 0] = connection.statuses();
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
    expect(connection.finalHead()).not.toContain('connection: close');
    connection.socket.destroy();
  });
});
