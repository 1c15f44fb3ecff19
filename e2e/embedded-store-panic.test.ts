import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './harness';
import { startTestInstance } from './instance-process';
import { signIn } from './sign-in';
import { readerApi } from './threads-api';

/**
 * The compiled server on its embedded database when a write to the database's log fails (a failing disk): PGlite
 * panics, and its next query would spin for ever. The server refuses every query with a 503, exits with 1 within
 * about a second, and started again has every write it acknowledged before.
 */
const preload = path.resolve(import.meta.dirname, '../server/test-support/fail-database-log-writes.cjs');
const directory = mkdtempSync(path.join(tmpdir(), 'embedded-panic-'));
const failFlag = path.join(directory, 'fail-log-writes');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The server as the image runs it, writing to the log through the preload that can fail its writes. */
const startServer = (port: number) =>
  startTestInstance(
    directory,
    {
      // Development keeps the session secret it made in DATA_DIR: the reader's cookie outlives the restart.
      NODE_ENV: 'development',
      SESSION_SECRET: '',
      LOG_LEVEL: 'silent',
      NODE_OPTIONS: `--require ${preload}`,
      FAIL_DATABASE_LOG_WRITES: failFlag,
    },
    { port },
  );

describe('the embedded database when a write to its log fails', () => {
  it('refuses with 503, exits with 1 instead of hanging, and keeps what it acknowledged', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await startServer(port);
    try {
      const { jar } = await signIn(baseUrl, { email: 'disk@acme.dev' });
      const api = readerApi(baseUrl, `acme_session=${jar.get('acme_session')}`);
      const kept = [await api.newThread(), await api.newThread()];

      writeFileSync(failFlag, '');
      const statuses: number[] = [];
      // Each new chat writes to the log; the first that reaches the disk fails (the log is written in 8 kB pages).
      for (let attempt = 0; attempt < 200 && !statuses.includes(503); attempt += 1) {
        statuses.push((await api.call('POST', '/api/threads', { title: 'x'.repeat(150) })).status);
      }
      expect(statuses.at(-1)).toBe(503);
      expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
      const failedAt = Date.now();
      // The event loop still turns: the next query is refused at once instead of spinning.
      const health = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      expect(health === undefined || health.status < 500 || health.status === 503).toBe(true);
      const readBack = await api.call('GET', '/api/threads').catch(() => undefined);
      if (readBack) expect(readBack.status).toBe(503);
      expect(await server.exited).toBe(1);
      expect(Date.now() - failedAt).toBeLessThan(5000);

      rmSync(failFlag);
      const restarted = await startServer(port);
      try {
        for (const id of kept) expect((await api.call('GET', `/api/threads/${id}`)).status).toBe(200);
      } finally {
        await restarted.stop();
      }
    } finally {
      await server.stop('SIGKILL');
    }
  }, 60_000);
});
