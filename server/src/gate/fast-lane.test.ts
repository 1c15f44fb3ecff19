import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFastLane, type FastLaneParts } from './fast-lane.js';
import type { SiteSnapshot } from './site-snapshot.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A lane in front of a stand-in for Fastify that answers "fastify"; resolves with its address. */
async function laneServer(parts: Partial<FastLaneParts>) {
  const lane = createFastLane();
  const server = lane.serverFactory((_request, response) => response.end('fastify'), { keepAliveTimeout: 1000 });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const errors: unknown[] = [];
  lane.open({
    current: () => ({ securityHeaders: {} }) as SiteSnapshot,
    accessOf: () => ({ state: 'signed-out' }),
    routedToSite: () => true,
    signInAnswer: (_access, _accept, details) => ({
      status: details.status,
      headers: { 'cache-control': 'no-store', 'content-type': 'text/plain' },
      body: 'sign in',
    }),
    currentPolicy: () => ({}),
    record: () => {},
    onError: (error) => errors.push(error),
    ...parts,
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { lane, url, errors };
}

describe('fast lane', () => {
  it('answers a stranger itself', async () => {
    const { lane, url } = await laneServer({});
    const response = await fetch(`${url}/page`);
    expect([response.status, await response.text()]).toEqual([401, 'sign in']);
    expect(lane.answered()).toBe(1);
  });

  it('leaves a request it fails on to Fastify, and says so', async () => {
    const { lane, url, errors } = await laneServer({
      accessOf: () => {
        throw new Error('broken');
      },
    });
    const response = await fetch(`${url}/page`);
    expect([response.status, await response.text()]).toEqual([200, 'fastify']);
    expect(lane.answered()).toBe(0);
    expect(errors).toHaveLength(1);
  });

  it('leaves everything to Fastify once stopping, and whatever is not GET or HEAD, or routed elsewhere', async () => {
    const { lane, url } = await laneServer({ routedToSite: (_method, path) => path !== '/api/me' });
    expect(await (await fetch(`${url}/page`, { method: 'POST' })).text()).toBe('fastify');
    expect(await (await fetch(`${url}/api/me`)).text()).toBe('fastify');
    lane.stop();
    expect(await (await fetch(`${url}/page`)).text()).toBe('fastify');
    expect(lane.answered()).toBe(0);
  });

  it("gives its server Fastify's own settings: timeouts, keep-alive and requests per connection", async () => {
    const settings = {
      keepAliveTimeout: 7000,
      requestTimeout: 300_000,
      connectionTimeout: 90_000,
      maxRequestsPerSocket: 50,
    };
    const withLane = Fastify({ ...settings, serverFactory: createFastLane().serverFactory });
    const plain = Fastify(settings);
    const of = (server: Server) => ({
      keepAliveTimeout: server.keepAliveTimeout,
      requestTimeout: server.requestTimeout,
      timeout: server.timeout,
      maxRequestsPerSocket: server.maxRequestsPerSocket,
      headersTimeout: server.headersTimeout,
    });
    expect(of(withLane.server)).toEqual(of(plain.server));
    expect(of(withLane.server)).toMatchObject({ keepAliveTimeout: 7000, timeout: 90_000, maxRequestsPerSocket: 50 });
  });
});
