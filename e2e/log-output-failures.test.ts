import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readDockerfile, repositoryRoot } from './dockerfile';
import { freePort } from './harness';

/**
 * The compiled server as the image runs it, its log written to an output that fails or that nobody reads: it keeps
 * answering, and SIGTERM still ends it. Before the fix a failed write (ENOSPC) was retried every 100 ms for ever, at
 * exit on the event loop's thread, so the process outlived every signal.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-log-output-'));
const running = new Set<ChildProcess>();

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

/** Far past the drain, the exit flush's second and the 10 s bound: a process still running then would never end. */
const endsWithinMs = 30_000;

type Output = 'full device' | 'pipe nobody reads' | 'pipe whose reader left';

/** The server with standard output and error on `output`, once it answers /healthz. */
async function startServer(output: Output, environment: Record<string, string>) {
  const port = await freePort();
  const full = output === 'full device' ? openSync('/dev/full', 'w') : undefined;
  const child = spawn(process.execPath, readDockerfile().command.slice(1), {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(workDirectory, `data-${port}`),
      LOG_LEVEL: 'debug',
      ...environment,
    },
    stdio: ['ignore', full ?? 'pipe', full ?? 'pipe'],
  });
  if (full !== undefined) closeSync(full);
  running.add(child);
  // A pipe left unread fills up; one whose reading end is closed fails every write with EPIPE.
  if (output === 'pipe whose reader left') for (const stream of [child.stdout, child.stderr]) stream?.destroy();
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600 && child.exitCode === null; attempt += 1) {
    if (await answers(`${url}/healthz`)) return { child, url, exited };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not answer /healthz (exit code ${child.exitCode})`);
}

function answers(url: string) {
  return fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.ok;
    },
    () => false,
  );
}

/** Sends the signal; resolves with the exit code, or 'still running' once `endsWithinMs` have passed. */
function stop(server: Awaited<ReturnType<typeof startServer>>, signal: NodeJS.Signals = 'SIGTERM') {
  server.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('still running'), endsWithinMs);
  });
  return Promise.race([server.exited, deadline]).finally(() => clearTimeout(timer));
}

/** Requests that each log a line or two (a page the reader is not signed in for). */
async function logLines(url: string, requests: number) {
  for (let request = 0; request < requests; request += 1) {
    await (await fetch(`${url}/docs/page-${request}`)).arrayBuffer();
  }
}

describe('a log output that fails', () => {
  it.each([
    ['full device', 'json'],
    ['full device', 'pretty'],
    ['pipe whose reader left', 'json'],
  ] as const)(
    'keepsAnsweringAndStopsOnSigterm: writes to a %s fail (%s lines)',
    async (output, format) => {
      const server = await startServer(output, { LOG_FORMAT: format });
      await logLines(server.url, 500);
      expect(await answers(`${server.url}/healthz`)).toBe(true);
      expect(await stop(server)).toBe(0);
    },
    90_000,
  );

  it('exitsOnASecondSignalWhileItsLogOutputFails', async () => {
    const server = await startServer('full device', { LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_SECONDS: '30' });
    await logLines(server.url, 200);
    server.child.kill('SIGTERM');
    // A repeat within a second is taken for the same Ctrl-C.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await stop(server)).toBeOneOf([0, 143]);
  }, 90_000);
});

describe('a log output nobody reads', () => {
  it('exitsOnSigtermThoughItsPipeIsFull: the flush at exit gives up instead of waiting for a reader', async () => {
    const server = await startServer('pipe nobody reads', { LOG_FORMAT: 'json' });
    // Far more than a pipe holds: lines wait in the server when it stops.
    await logLines(server.url, 3000);
    expect(await answers(`${server.url}/healthz`)).toBe(true);
    expect(await stop(server)).toBe(0);
  }, 90_000);
});
