import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './harness';
import { signIn } from './sign-in';
import { readerApi } from './threads-api';

/**
 * The compiled server as production runs it (`node server/dist/start.js`) on its embedded database, killed with
 * SIGKILL while readers are writing: every write it acknowledged is there after a restart.
 */
const serverScript = path.resolve(import.meta.dirname, '../server/dist/start.js');
const dataDirectory = mkdtempSync(path.join(tmpdir(), 'embedded-crash-'));
afterAll(() => rmSync(dataDirectory, { recursive: true, force: true }));

async function startServer(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [serverScript], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDirectory,
      LOG_LEVEL: 'warn',
      // Without SESSION_SECRET, development keeps the secret it made in DATA_DIR: the reader's cookie outlives crashes.
      NODE_ENV: 'development',
      SESSION_SECRET: '',
    },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return server;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.kill('SIGKILL');
  throw new Error('the server did not become healthy within 30 s');
}

describe('the embedded database killed with SIGKILL during writes', () => {
  it('loses no thread whose creation was acknowledged, over three crashes', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let server = await startServer(port);
    const { jar } = await signIn(baseUrl, { email: 'crash@acme.dev' });
    const api = readerApi(baseUrl, `acme_session=${jar.get('acme_session')}`);
    const acknowledged: string[] = [];
    try {
      for (let round = 0; round < 3; round += 1) {
        const target = acknowledged.length + 30;
        let writing = true;
        let refused: unknown;
        const writers = Array.from({ length: 4 }, async () => {
          while (writing) {
            try {
              acknowledged.push(await api.newThread());
            } catch (error) {
              // Refused while the server still runs is a failure of the test's own making; after the kill it is expected.
              if (writing) refused = error;
              return;
            }
          }
        });
        while (acknowledged.length < target && refused === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (refused) throw refused;
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGKILL');
        writing = false;
        await Promise.all([exited, ...writers]);

        server = await startServer(port);
        const statuses = await Promise.all(
          acknowledged.map(async (id) => (await api.call('GET', `/api/threads/${id}`)).status),
        );
        expect(acknowledged.filter((_id, index) => statuses[index] !== 200)).toEqual([]);
      }
    } finally {
      server.kill('SIGKILL');
    }
  }, 180_000);
});
