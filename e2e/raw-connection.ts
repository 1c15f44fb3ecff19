import { connect } from 'node:net';

/**
 * A connection of our own to a server, for requests no HTTP client would send (a trickled body, headers that never
 * end): what came back, the statuses in it, and how long after opening the server closed the connection (a reset
 * counts), or undefined when it had not after `giveUpAfterMs` (a bound for failing, never a timing under test).
 * `localAddress` is the address it comes from (another loopback address, such as 127.0.0.2, is another client).
 */
export function rawConnection(
  baseUrl: string,
  { giveUpAfterMs, localAddress }: { giveUpAfterMs?: number; localAddress?: string } = {},
) {
  const opened = performance.now();
  const socket = connect({ port: Number(new URL(baseUrl).port), host: '127.0.0.1', localAddress });
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A reset, or a write after the server closed: the close that follows is what a test waits for.
  socket.on('error', () => {});
  const closedAfterMs = new Promise<number | undefined>((resolve) => {
    socket.once('close', () => resolve(performance.now() - opened));
    if (giveUpAfterMs !== undefined) setTimeout(() => resolve(undefined), giveUpAfterMs).unref();
  });
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
  return { socket, received: () => received, statuses, closedAfterMs };
}
