/**
 * The newcomer's path, run by `.ci/run` on the machine's own Node while it is older than the one the suite runs on:
 * `npm start` on a fresh data directory (it builds the site and the server), sign in through the development IdP,
 * ask Dev Copilot a question the handbook answers, and stop the server with SIGTERM. Exits 1 on the first step
 * that fails, naming it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AskAiResponse } from '@acme/contract';
import { sessionCookieFor } from '../e2e/sign-in';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const startLimitMs = 180_000;
const stopLimitMs = 15_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilReady(baseUrl: string, exited: () => boolean) {
  const deadline = Date.now() + startLimitMs;
  while (Date.now() < deadline && !exited()) {
    // Ready, and its first search index in (pages are served before it; questions wait for it).
    const ready = await fetch(`${baseUrl}/readyz`).then(
      async (response) => response.ok && ((await response.json()) as { search?: string }).search === 'ready',
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(exited() ? '`npm start` exited before it was ready' : '`npm start` was not ready in time');
}

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDirectory = mkdtempSync(path.join(tmpdir(), 'newcomer-'));
const server = spawn('npm', ['start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), PUBLIC_URL: baseUrl, DATA_DIR: dataDirectory, LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
let exitCode: number | null | undefined;
const exited = new Promise<void>((resolve) =>
  server.once('exit', (code) => {
    exitCode = code;
    resolve();
  }),
);

try {
  await waitUntilReady(baseUrl, () => exitCode !== undefined);
  console.log(`newcomer path on Node ${process.version}: started and ready`);
  const cookie = await sessionCookieFor(baseUrl, 'newcomer@acme.dev');
  const page = await fetch(`${baseUrl}/`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`the home page answered ${page.status} after sign-in`);
  const asked = await fetch(`${baseUrl}/api/askAi`, {
    method: 'POST',
    headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I add a TTL policy in Firestore?' }] }],
    }),
  });
  const answer = (await asked.json()) as AskAiResponse;
  if (asked.status !== 200 || answer.sources.length === 0) {
    throw new Error(`askAi answered ${asked.status} with ${answer.sources?.length ?? 0} sources`);
  }
  console.log(`newcomer path: signed in, asked, answered from ${answer.sources[0]?.url}`);
  server.kill('SIGTERM');
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), stopLimitMs)),
  ]);
  if (!stopped) throw new Error('the server did not stop within 15 s of SIGTERM');
  console.log('newcomer path: stopped cleanly');
} catch (error) {
  console.error(`newcomer path failed: ${(error as Error).message}`);
  server.kill('SIGKILL');
  process.exitCode = 1;
} finally {
  rmSync(dataDirectory, { recursive: true, force: true });
}
