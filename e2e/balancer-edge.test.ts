import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../server/src/gate/security-headers.js';
import { type Balancer, startBalancer, startRedirectServer } from './balancer';
import { freePort } from './harness';
import { type Instance, startTestInstance } from './instance-process';

/**
 * deploy/nginx/ as the edge of compose.yaml: what a client can make of nginx itself. A compiled instance (its sign-in
 * limit at three returns a minute, trusting nginx's address only) behind Debian's nginx with the deployed rules, a
 * balancer whose instance is gone, and the template's plain-HTTP server rendered for a configured name.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-edge-'));
// nginx's worker runs as another user and reads the deployed error pages from here.
chmodSync(workDirectory, 0o755);
const serverName = 'docs.acme.dev';
let instance: Instance;
let balancer: Balancer;
let orphanBalancer: Balancer;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const balancerPort = await freePort();
  instance = await startTestInstance(workDirectory, {
    PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
    SESSION_SECRET: 'one-secret-for-the-edge-tests-of-the-handbook',
    TRUST_PROXY: '127.0.0.1',
    SIGN_IN_REQUESTS_PER_MINUTE: '3',
  });
  stops.push(() => instance.stop('SIGKILL'));
  balancer = await startBalancer({
    directory: path.join(workDirectory, 'nginx'),
    port: balancerPort,
    instances: [`127.0.0.1:${instance.port}`, `127.0.0.1:${instance.port}`],
  });
  stops.push(() => balancer.stop());
  // Both upstream servers are ports nothing listens on: every request is nginx's own 502.
  const gone = [await freePort(), await freePort()].map((port) => `127.0.0.1:${port}`);
  orphanBalancer = await startBalancer({
    directory: path.join(workDirectory, 'orphan'),
    port: await freePort(),
    instances: gone,
  });
  stops.push(() => orphanBalancer.stop());
}, 120_000);

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  rmSync(workDirectory, { recursive: true, force: true });
});

/** A raw request, for what fetch will not send (a Host of the client's choosing, a Content-Length it will not send). */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
      // nginx lingers on a connection whose body it refused; the page is all that is wanted.
      if (response.includes('</html>')) {
        socket.destroy();
        resolve(response);
      }
    });
    socket.on('end', () => resolve(response));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

const headerOf = (response: string, name: string) =>
  new RegExp(`^${name}: ([^\\r\\n]*)`, 'im').exec(response.split('\r\n\r\n')[0] ?? '')?.[1];

/** The handbook's own security headers but its CSP (which names the build's scripts; nginx's pages have none). */
const handbookHeaders = Object.entries(securityHeaders({ scriptHashes: [], strictTransport: true })).filter(
  ([name]) => name !== 'content-security-policy',
);

describe('nginx as the edge', () => {
  it('ignoresForgedForwardedForThroughNginx: a client changing X-Forwarded-For cannot reset the sign-in limit', async () => {
    const callback = (forged: string) =>
      fetch(`${balancer.url}/auth/callback?code=x&state=y`, {
        headers: { 'x-forwarded-for': forged, accept: 'text/html' },
        redirect: 'manual',
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await callback(`203.0.113.${attempt}`)).status);
    // Every return came from nginx's one address, whatever the header said: the fourth is refused, and the rest.
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
  });

  it('hidesNginxVersion and gives nginx own error pages the handbook security headers when no instance answers', async () => {
    const response = await fetch(`${orphanBalancer.url}/firestore-ttl`);
    expect(response.status).toBe(502);
    expect(response.headers.get('server')).toBe('nginx');
    const body = await response.text();
    expect(body).toContain('The handbook is unavailable for a moment');
    expect(body).not.toMatch(/nginx\/\d/);
    for (const [name, value] of handbookHeaders) expect([name, response.headers.get(name)]).toEqual([name, value]);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('givesRefusedBodiesTheSecurityHeaders: nginx refusing a body past its limit answers with the headers too', async () => {
    const response = await rawRequest(
      Number(new URL(balancer.url).port),
      'POST /api/askAi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 40000000\r\nConnection: close\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).toContain('This request could not be handled');
    for (const [name, value] of handbookHeaders) expect([name, headerOf(response, name)]).toEqual([name, value]);
    expect(headerOf(response, 'server')).toBe('nginx');
  });

  it('redirectsToTheConfiguredHostNotTheClients: plain HTTP goes to https://SERVER_NAME whatever Host says', async () => {
    const port = await freePort();
    const redirect = await startRedirectServer({ directory: path.join(workDirectory, 'redirect'), port, serverName });
    stops.push(() => redirect.stop());
    const response = await rawRequest(
      port,
      'GET /firestore-ttl?x=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 308 /);
    expect(headerOf(response, 'location')).toBe(`https://${serverName}/firestore-ttl?x=1`);
    expect(headerOf(response, 'server')).toBe('nginx');
  });
});
