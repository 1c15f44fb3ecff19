/** The compiled server run as production runs it (`node server/dist/start.js`), for bench/serving.ts. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildServerIfStale, compiledEntry } from '../server/scripts/build.mjs';

/**
 * As in server/package.json's start script and README's production command; `BENCH_SERVER_NODE_FLAGS` adds more
 * (space-separated), to compare a V8 setting before it goes into the start scripts.
 */
const productionNodeFlags = [
  '--max-semi-space-size=2',
  '--liftoff-only',
  ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
];
/**
 * As in the start scripts and the Dockerfile: glibc's threshold for serving an allocation by its own mapping, fixed.
 * `BENCH_GLIBC_MALLOC_DEFAULTS=1` leaves glibc's own (a threshold that rises after each large free) for comparison.
 */
const productionEnvironment: Record<string, string> =
  process.env.BENCH_GLIBC_MALLOC_DEFAULTS === '1' ? {} : { MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * Compiles server/dist when it is missing or older than its sources, as `npm start` does; returns whether it did.
 * A current dist is left alone: a test suite running meanwhile may be using it.
 */
export const ensureCompiledServer = () => buildServerIfStale({ quiet: true });

/** Resident memory of a process in MB, from /proc; 0 once it has gone. */
export function residentMegabytes(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return Number(match?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory every 250 ms until stopped; returns the peak seen and the last sample. */
export function sampleMemory(pid: number) {
  let peak = residentMegabytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, residentMegabytes(pid));
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const last = residentMegabytes(pid);
      return { peak: Math.max(peak, last), last };
    },
  };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function answersHealthz(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const repositoryRoot = path.resolve(import.meta.dirname, '..');

/**
 * Spawns the compiled server with only PORT, DATA_DIR and (when given) SITE_DIR set, as a production start would, or
 * with `viaNpmStart` as a reader of README starts it; resolves at its first 200 from /healthz, polled every 25 ms.
 * Its JSON log goes to `logFile`.
 */
export async function startServerProcess(options: {
  port: number;
  dataDirectory: string;
  logFile: string;
  siteDirectory?: string;
  viaNpmStart?: boolean;
  /** How long it may take to answer /healthz; 120 s unless given. */
  healthyWithinMs?: number;
  /** More of the server's environment (METRICS_PORT, say). */
  environment?: Record<string, string>;
}) {
  const environment: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // `npm start` sets it itself.
    ...(options.viaNpmStart ? {} : productionEnvironment),
    PORT: String(options.port),
    DATA_DIR: options.dataDirectory,
    ...(options.siteDirectory ? { SITE_DIR: options.siteDirectory } : {}),
    ...options.environment,
  };
  const log = openSync(options.logFile, 'a');
  const startedAt = performance.now();
  const child = options.viaNpmStart
    ? spawn('npm', ['start'], { cwd: repositoryRoot, env: environment, stdio: ['ignore', log, log] })
    : spawn(process.execPath, [...productionNodeFlags, compiledEntry], {
        env: environment,
        stdio: ['ignore', log, log],
      });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error('The server process could not be spawned.');
  const url = `http://127.0.0.1:${options.port}`;
  while (!(await answersHealthz(url))) {
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (exited || performance.now() - startedAt > (options.healthyWithinMs ?? 120_000)) {
      await stopProcess(child);
      const lastLines = readFileSync(options.logFile, 'utf8').trim().split('\n').slice(-5).join('\n');
      const how = exited
        ? `it exited (${child.exitCode ?? child.signalCode})`
        : `not within ${(options.healthyWithinMs ?? 120_000) / 1000} s`;
      throw new Error(`The server did not become healthy: ${how}. Its log ends:\n${lastLines}`);
    }
    await sleep(25);
  }
  return {
    pid,
    /** Where load is sent: the address it listens on. */
    url,
    /** Its public URL (the default, localhost): sign-in redirects and the Origin check use it. */
    publicOrigin: `http://localhost:${options.port}`,
    millisecondsToHealthy: performance.now() - startedAt,
    residentMegabytes: () => residentMegabytes(pid),
    stop: () => stopProcess(child),
  };
}
