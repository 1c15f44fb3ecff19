/**
 * One instance of the compiled server run as the image runs it (the Dockerfile's CMD, from the repository), as a child
 * process with its JSON log in a file: for tests of several instances, signals and outages.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { readDockerfile, repositoryRoot } from './dockerfile';
import { freePort } from './harness';

export type Instance = {
  port: number;
  url: string;
  pid: number;
  logFile: string;
  /** Log lines parsed, e.g. to see which requests this instance answered. */
  logLines(): Array<Record<string, unknown>>;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the instance ends, whatever ended it. */
  exited: Promise<number | null>;
  /** With `outputNeverRead`: how many bytes its standard output holds unread, read at last (after it exited). */
  readUnreadOutput(): number;
};

export async function startInstance(options: {
  port: number;
  logFile: string;
  environment: Record<string, string>;
  /** Standard output is a pipe that is never read (a paused supervisor, a stuck log shipper), not the log file. */
  outputNeverRead?: boolean;
}): Promise<Instance> {
  const { command } = readDockerfile();
  const log = openSync(options.logFile, 'a');
  const unread = options.outputNeverRead ? neverReadPipe(`${options.logFile}.pipe`) : undefined;
  const child = spawn(process.execPath, command.slice(1), {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(options.port),
      LOG_FORMAT: 'json',
      ...options.environment,
    },
    stdio: ['ignore', unread?.writeEnd ?? log, log],
  });
  closeSync(log);
  if (unread) closeSync(unread.writeEnd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${options.port}`;
  const pid = child.pid ?? 0;
  const instance: Instance = {
    port: options.port,
    url,
    pid,
    logFile: options.logFile,
    exited,
    logLines: () =>
      readFileSync(options.logFile, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    readUnreadOutput() {
      if (!unread) throw new Error('its output is a file');
      return readAllAvailable(unread.readEnd);
    },
  };
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`the instance exited with ${child.exitCode}:\n${readFileSync(options.logFile, 'utf8')}`);
    }
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy && (await searchIndexed(url))) return instance;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await instance.stop('SIGKILL');
  throw new Error('the instance did not become healthy within 30 s');
}

/**
 * An instance of a test of its own in `workDirectory`: on a free port (or `port`), its log in `<name>.log`, NODE_ENV
 * test, PUBLIC_URL its own address and DATA_DIR `data` there; `environment` adds to those or replaces them (a
 * balancer's PUBLIC_URL, another data directory).
 */
export async function startTestInstance(
  workDirectory: string,
  environment: Record<string, string> = {},
  options: { name?: string; port?: number; outputNeverRead?: boolean } = {},
): Promise<Instance> {
  const port = options.port ?? (await freePort());
  return startInstance({
    port,
    logFile: path.join(workDirectory, `${options.name ?? 'instance'}.log`),
    outputNeverRead: options.outputNeverRead,
    environment: {
      NODE_ENV: 'test',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(workDirectory, 'data'),
      ...environment,
    },
  });
}

/**
 * Whether the instance's first search index is in (a test asks questions at once; before it, 503 by design). An
 * instance whose database is away still says so: its readiness probe answers 503 with the same field.
 */
async function searchIndexed(url: string) {
  return fetch(`${url}/readyz`).then(
    async (response) => ((await response.json()) as { search?: string }).search === 'ready',
    () => false,
  );
}

/**
 * A named pipe (Node's own child pipes are read into the parent's buffer and emptied at exit): the reader stays open,
 * so writes do not fail with EPIPE, but reads nothing, so once the pipe is full every write would wait.
 */
function neverReadPipe(file: string) {
  const made = spawnSync('mkfifo', ['-m', '600', file]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const readEnd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  return { readEnd, writeEnd: openSync(file, constants.O_WRONLY) };
}

function readAllAvailable(fd: number) {
  const buffer = Buffer.alloc(1 << 16);
  let bytes = 0;
  for (;;) {
    try {
      const count = readSync(fd, buffer);
      if (count === 0) break;
      bytes += count;
    } catch {
      // EAGAIN: nothing more to read.
      break;
    }
  }
  closeSync(fd);
  return bytes;
}
