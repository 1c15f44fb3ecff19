/**
 * growth.ts's rebuilds of a running server: the time until the new build is served, the server's longest event-loop
 * delay meanwhile and its resident peak.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startLoopReference } from './loop-reference';
import { sampleMemory } from './server-process';

/**
 * The niceness the pages are rebuilt under (`GROWTH_BUILD_NICE`, default 10): a build run on the server's machine is
 * a batch job beside it, as an operator runs one (`nice npm run build`); 0 runs it at the server's own priority.
 */
export const buildNiceness = Number(process.env.GROWTH_BUILD_NICE ?? 10);

/** The server's own `nodejs_eventloop_lag_max_seconds` in ms (prom-client resets it on every scrape). */
export async function loopLagMaxMs(metricsPort: number): Promise<number> {
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  // Once more on a failed connection: after a busy spell of this machine the server may have closed the kept-alive
  // socket before this process saw it. A scrape that never arrived reset nothing.
  const metrics = await scrape().catch(async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return scrape();
  });
  return Number(metrics.match(/^nodejs_eventloop_lag_max_seconds (\S+)$/m)?.[1] ?? Number.NaN) * 1000;
}

/**
 * Every page of the build rewritten, then its search prepared, by a process of its own (rewrite-build.ts) under
 * `buildNiceness`; `onStep` is told `written` and `prepared` as each is done.
 */
async function rewriteInAnotherProcess(siteDirectory: string, onStep: (step: string) => Promise<void>) {
  const script = path.join(import.meta.dirname, 'rewrite-build.ts');
  const child = spawn(
    'nice',
    ['-n', String(buildNiceness), process.execPath, '--import', 'tsx', script, siteDirectory],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // A process that could not start says so by 'error', and then never by 'exit'.
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('exit', resolve);
    child.once('error', reject);
  });
  for await (const line of createInterface({ input: child.stdout })) await onStep(line.trim());
  const code = await exited;
  if (code !== 0) throw new Error(`the rebuild process ended with code ${code}`);
}

/**
 * A rebuild as the server sees one, then the time until the new build is served (from its last file written), the
 * longest event-loop delay meanwhile and the resident peak. `stylesheet`: one stylesheet edited, the pages the same;
 * `pages`: every page rewritten with its twins, then the search prepared again, as `npm run build` writes a docs edit.
 */
export async function rebuildOnce(
  kind: 'stylesheet' | 'pages',
  server: { pid: number; logFile: string; metricsPort: number },
  siteDirectory: string,
) {
  const swaps = () => readFileSync(server.logFile, 'utf8').split('serving a new site build').length - 1;
  const stylesheet = readdirSync(path.join(siteDirectory, 'assets', 'css')).find((file) => file.endsWith('.css'));
  if (!stylesheet) return undefined;
  const swapsBefore = swaps();
  const reference = startLoopReference();
  try {
    await reference.longestMs();
    await loopLagMaxMs(server.metricsPort);
    const memory = sampleMemory(server.pid);
    let started = performance.now();
    /** The longest loop delay while the pages were written and while their search was prepared. */
    const phases = { writtenMs: Number.NaN, preparedMs: Number.NaN };
    let referenceMs = 0;
    const lagsNow = async () => {
      const [serverLag, idle] = await Promise.all([loopLagMaxMs(server.metricsPort), reference.longestMs()]);
      referenceMs = Math.max(referenceMs, idle);
      return serverLag;
    };
    if (kind === 'stylesheet')
      appendFileSync(path.join(siteDirectory, 'assets', 'css', stylesheet), '\n/* edited */\n');
    else {
      // As `npm run build` writes it: the pages (404.html last), then their search prepared. The server may start on
      // the pages meanwhile; the preparation's marker stops that.
      await rewriteInAnotherProcess(siteDirectory, async (step) => {
        if (step === 'written') phases.writtenMs = await lagsNow();
        if (step === 'prepared') phases.preparedMs = await lagsNow();
      });
      started = performance.now();
    }
    while (swaps() === swapsBefore && performance.now() - started < 300_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const swapMs = swaps() === swapsBefore ? Number.NaN : performance.now() - started;
    const swappedMs = await lagsNow();
    return {
      swapMs,
      loopLagMs: Math.max(swappedMs, phases.writtenMs || 0, phases.preparedMs || 0),
      phases: { ...phases, swappedMs },
      /** The longest delay of an idle Node process beside the server meanwhile (loop-reference.ts). */
      referenceLagMs: referenceMs,
      residentMb: memory.stop(),
    };
  } finally {
    reference.stop();
  }
}
