import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from './harness';
import { type Instance, startTestInstance } from './instance-process';
import { signIn } from './sign-in';
import { readerApi } from './threads-api';

/**
 * The compiled server on its embedded database when a write to the database's log fails (a failing disk): PGlite
 * panics, and any later call into it would spin for ever. The server refuses every query with a 503, exits with 1
 * instead of hanging, and started again has every write it acknowledged before.
 */
const preload = path.resolve(import.meta.dirname, '../server/test-support/fail-database-log-writes.cjs');
const directories: string[] = [];
// A server that hangs spins on its event loop for ever: killed here even when its test gave up waiting for it.
const started: Instance[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop('SIGKILL')));
});
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A data directory of its own, and the file whose presence makes writes to its database's log fail. */
function failingDisk() {
  const directory = mkdtempSync(path.join(tmpdir(), 'embedded-panic-'));
  directories.push(directory);
  return { directory, flag: path.join(directory, 'fail-log-writes') };
}

/** The server as the image runs it, writing to the log through the preload that can fail its writes. */
async function startServer({ directory, flag }: ReturnType<typeof failingDisk>, port: number) {
  const server = await startTestInstance(
    directory,
    {
      // Development keeps the session secret it made in DATA_DIR: the reader's cookie outlives the restart.
      NODE_ENV: 'development',
      SESSION_SECRET: '',
      LOG_LEVEL: 'silent',
      NODE_OPTIONS: `--require ${preload}`,
      FAIL_DATABASE_LOG_WRITES: flag,
    },
    { port },
  );
  started.push(server);
  return server;
}

async function signedInReader(baseUrl: string, email: string) {
  const { jar } = await signIn(baseUrl, { email });
  return readerApi(baseUrl, `acme_session=${jar.get('acme_session')}`);
}

describe('the embedded database when a write to its log fails', () => {
  it('refuses with 503, exits with 1 instead of hanging, and keeps what it acknowledged', async () => {
    const disk = failingDisk();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await startServer(disk, port);
    const api = await signedInReader(baseUrl, 'disk@acme.dev');
    const kept = [await api.newThread(), await api.newThread()];

    writeFileSync(disk.flag, '');
    const statuses: number[] = [];
    // Each new chat writes to the log; the first that reaches the disk fails (the log is written in 8 kB pages).
    for (let attempt = 0; attempt < 200 && !statuses.includes(503); attempt += 1) {
      statuses.push((await api.call('POST', '/api/threads', { title: 'x'.repeat(150) })).status);
    }
    expect(statuses.at(-1)).toBe(503);
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    // The event loop still turns: the next query is refused at once instead of spinning.
    const health = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    expect(health === undefined || health.status < 500 || health.status === 503).toBe(true);
    const readBack = await api.call('GET', '/api/threads').catch(() => undefined);
    if (readBack) expect(readBack.status).toBe(503);
    expect(await server.exited).toBe(1);

    rmSync(disk.flag);
    await startServer(disk, port);
    for (const id of kept) expect((await api.call('GET', `/api/threads/${id}`)).status).toBe(200);
  }, 60_000);

  it('refuses a turn whose transaction panics with 503 and exits with 1, instead of spinning inside PGlite', async () => {
    const disk = failingDisk();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await startServer(disk, port);
    const api = await signedInReader(baseUrl, 'turns@acme.dev');
    const threadId = await api.newThread();

    writeFileSync(disk.flag, '');
    // A turn stores its question and its answer in one transaction: its COMMIT is the first write to reach the log.
    const response = await api.startTurn({ threadId, parentId: null, text: 'How do I register a GitLab runner?' });
    expect(response.status).toBe(503);
    expect(await server.exited).toBe(1);
  }, 60_000);
});
