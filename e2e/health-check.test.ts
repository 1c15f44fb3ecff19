import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readDockerfile } from './dockerfile';

/**
 * The image's HEALTHCHECK command, run as Docker runs it, against a stand-in for /readyz: `docker compose up --wait`
 * (README's rolling update) must not move on to the next instance while this one's search still answers 503.
 */
const { healthCheck } = readDockerfile();
let probe: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => probe?.close(resolve) ?? resolve(undefined));
  probe = undefined;
});

async function exitCodeAgainst(status: number, body: string) {
  probe = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => probe?.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  // The stand-in answers on this thread, so the check runs beside it (spawn, not spawnSync).
  const child = spawn(process.execPath, healthCheck.slice(1), { env: { ...process.env, PORT: String(port) } });
  return new Promise<number | null>((resolve) => child.once('exit', resolve));
}

describe('the image health check', () => {
  it('passes only when the instance is ready and its search is in', async () => {
    const body = { status: 'ready', checks: { database: 'ok', storage: 'ok', site: 'ok' }, search: 'ready' };
    expect(await exitCodeAgainst(200, JSON.stringify(body))).toBe(0);
  });

  it('fails while the first search index is still being built', async () => {
    const body = { status: 'ready', checks: { database: 'ok', storage: 'ok', site: 'ok' }, search: 'indexing' };
    expect(await exitCodeAgainst(200, JSON.stringify(body))).toBe(1);
  });

  it('fails when the instance is not ready, and when nothing answers', async () => {
    const body = {
      status: 'unavailable',
      checks: { database: 'unreachable', storage: 'ok', site: 'ok' },
      search: 'ready',
    };
    expect(await exitCodeAgainst(503, JSON.stringify(body))).toBe(1);
    const nothing = spawnSync(process.execPath, healthCheck.slice(1), { env: { ...process.env, PORT: '1' } });
    expect(nothing.status).toBe(1);
  });
});
