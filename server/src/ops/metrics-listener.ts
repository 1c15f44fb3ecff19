import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/**
 * Prometheus' own listener, apart from the public port: GET /metrics in the text format and nothing else. Plain
 * node:http is enough for one route that no reader ever reaches; the scrapes stay out of the access log and of the
 * request metrics.
 */
/**
 * A scrape sends a few headers and no body: a connection that has not sent them within this long is closed (408), as on
 * the public port; Node's own default held 100 slow sockets for 75 s (a review).
 */
const headersTimeoutMs = 20_000;

export async function listenForScrapes(
  registry: Registry,
  { host, port, headersTimeout = headersTimeoutMs }: { host: string; port: number; headersTimeout?: number },
) {
  const timeouts = {
    headersTimeout,
    requestTimeout: headersTimeout,
    connectionsCheckingInterval: Math.max(100, headersTimeout / 10),
  };
  const server = createServer(timeouts, (request, response) => {
    if (request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are at /metrics.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      (text) =>
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      // Each gauge read on scrape catches its own failure; this is for anything unforeseen, said without details.
      () => response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) =>
      reject(new Error(`METRICS_PORT: cannot listen on ${host}:${port}: ${error.message}`));
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  return {
    address: () => server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
