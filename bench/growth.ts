/**
 * How search and docs-only answers grow with the handbook: the handbook and generated handbooks 10, 30 and 100 times
 * larger (`GROWTH_SIZES=1,10,30` to run fewer). In process: search and askAi docs-only latency over held-out questions,
 * the index build as the server runs it and the longest event-loop block meanwhile. As a process (`node
 * server/dist/start.js` over a build with that many pages, its search prepared as `npm run build` prepares it): the
 * prepare step's time, then time to /healthz, to the first search answered, the longest wait for /healthz while the
 * search is loaded, and resident memory; and the same without the prepared file (the pages parsed and indexed at start,
 * then a second start on the search the first kept in DATA_DIR) up to 10x, or at every size with
 * `GROWTH_PARSED_PATH=all` (`GROWTH_PROCESS_ONLY=1` skips the in-process figures). Prints figures only; it never fails
 * on a number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { freePort, siteBuildDirectory } from '../e2e/harness';
import { sessionCookieFor } from '../e2e/sign-in';
import { prepareSiteBuild } from '../server/scripts/build.mjs';
import { composeDocsOnlyAnswer } from '../server/src/copilot/answer/docs-only-answer.js';
import { retrieve } from '../server/src/search/coverage.js';
import type { DocSection } from '../server/src/search/doc-page.js';
import { buildSearchEngineInBackground, type SearchEngine } from '../server/src/search/engine.js';
import { preparedSearchFile } from '../server/src/search/prepared-search.js';
import { searchResults } from '../server/src/search/search-results.js';
import { readDocSections } from '../server/src/search/sections.js';
import { buildNiceness, loopLagMaxMs, rebuildOnce } from './growth-rebuild';
import { heldAsTheServerHolds, largerHandbook } from './larger-handbook';
import { questionSet } from './questions/evaluate';
import { ensureCompiledServer, sampleMemory, startServerProcess } from './server-process';
import { copyBuild, multiplyPages } from './site-copies';

const sizes = (process.env.GROWTH_SIZES ?? '1,10,30,100').split(',').map(Number);
/** Starting on the pages parsed takes minutes past 10x: only when asked for. */
/** `GROWTH_PROCESS_ONLY=1`: only the server processes, for a change to how the server starts. */
const processOnly = process.env.GROWTH_PROCESS_ONLY === '1';
/** Every page rebuilt this many times in a row (`GROWTH_PAGE_REBUILDS`). */
const pageRebuilds = Number(process.env.GROWTH_PAGE_REBUILDS ?? 3);
const parsedPathAt = (copies: number) => process.env.GROWTH_PARSED_PATH === 'all' || copies <= 10;
const goals = {
  searchP50: 15,
  searchP99: 60,
  answerP50: 30,
  readyMs: 10_000,
  blockMs: 50,
  residentMb: 700,
  exponent: 1,
};

const heldOut = questionSet('held-out');
const questions = [
  ...heldOut.inScope.slice(0, 100).map((entry) => entry.question),
  ...heldOut.outOfScope.slice(0, 20).map((entry) => entry.question),
];
/** What a search box sends while a question is typed: its first words, cut mid-word. */
const typed = questions.map((question) => question.slice(0, Math.max(4, Math.floor(question.length / 3))));

const percentile = (values: readonly number[], share: number) =>
  [...values].sort((first, second) => first - second)[Math.min(values.length - 1, Math.floor(values.length * share))] ??
  0;

function timeEach(run: (question: string) => void, inputs: readonly string[]) {
  const times = inputs.map((input) => {
    const started = performance.now();
    run(input);
    return performance.now() - started;
  });
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** The index built as the server builds it, with the longest event-loop block meanwhile. */
async function buildAsTheServerDoes(sections: readonly DocSection[]) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const engine = await buildSearchEngineInBackground(sections);
  const buildMs = performance.now() - started;
  delay.disable();
  return { engine, buildMs, longestBlockMs: delay.max / 1e6 };
}

function inProcess(engine: SearchEngine) {
  // Once untimed, so that every size is timed with warm code.
  for (const question of questions) retrieve(engine, question);
  const search = timeEach((query) => searchResults(engine, query, { limit: 8 }), [...typed, ...questions]);
  const answer = timeEach((question) => {
    const retrieval = retrieve(engine, question);
    composeDocsOnlyAnswer({ retrieval, termWeight: engine.termWeight, meaningWeight: engine.meaningWeight });
  }, questions);
  return { search, answer };
}

/**
 * The compiled server over a build with `copies` times the pages, its search prepared as `npm run build` does: the
 * prepare step's time, the start, first search and memory; and the same with the pages parsed at start when asked.
 */
async function asProcess(copies: number, parsedPath: boolean) {
  const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-growth-bench-'));
  const siteDirectory = path.join(workDirectory, 'build');
  try {
    copyBuild(siteBuildDirectory, siteDirectory);
    if (copies > 1) multiplyPages(siteDirectory, copies);
    const preparing = performance.now();
    prepareSiteBuild(siteDirectory, { quiet: true });
    const prepareMs = performance.now() - preparing;
    const prepared = await startAndSearch(workDirectory, siteDirectory, { rebuild: true });
    if (!parsedPath) return { prepareMs, prepared };
    rmSync(path.join(siteDirectory, preparedSearchFile));
    // The server keeps the search it made in DATA_DIR: the next start on the same data reads it instead.
    const dataDirectory = mkdtempSync(path.join(workDirectory, 'data-'));
    const parsed = await startAndSearch(workDirectory, siteDirectory, { dataDirectory });
    return { prepareMs, prepared, parsed, kept: await startAndSearch(workDirectory, siteDirectory, { dataDirectory }) };
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

/** One start of the compiled server over the build: to /healthz, to its first search answered, and its memory. */
async function startAndSearch(
  workDirectory: string,
  siteDirectory: string,
  options: { rebuild?: boolean; dataDirectory?: string } = {},
) {
  const port = await freePort();
  const metricsPort = await freePort();
  const logFile = path.join(workDirectory, 'server.log');
  const started = performance.now();
  const server = await startServerProcess({
    environment: { METRICS_PORT: String(metricsPort) },
    port,
    dataDirectory: options.dataDirectory ?? mkdtempSync(path.join(workDirectory, 'data-')),
    logFile,
    siteDirectory,
    healthyWithinMs: 600_000,
  });
  const memory = sampleMemory(server.pid);
  try {
    const healthyMs = performance.now() - started;
    // prom-client's longest event-loop delay since it was last asked: asked now, it covers the loading from here on.
    await loopLagMaxMs(metricsPort);
    // The longest /healthz takes while the search loads, seen from outside.
    let longestHealthMs = 0;
    let loading = true;
    const probe = (async () => {
      while (loading) {
        const asked = performance.now();
        // A server that stopped fails the readiness loop below, which reports it; the probe only stops.
        const answered = await fetch(`${server.url}/healthz`)
          .then((response) => response.arrayBuffer())
          .then(
            () => true,
            () => false,
          );
        if (!answered) break;
        longestHealthMs = Math.max(longestHealthMs, performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    let readyMs = Number.NaN;
    let unavailable = 0;
    // /readyz says when the first index is in. The bench signs in only then: a sign-in's own work on the server's
    // thread would be counted as the loading's.
    const searchReady = () =>
      fetch(`${server.url}/readyz`)
        .then((response) => response.json() as Promise<{ search?: string }>)
        .then((body) => body.search === 'ready');
    // The index may take minutes at 100x on a busy machine; past ten more the figure is reported as missing.
    while (Number.isNaN(readyMs) && performance.now() - started < healthyMs + 600_000) {
      if (await searchReady()) readyMs = performance.now() - started;
      else {
        unavailable += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const loopLagMs = await loopLagMaxMs(metricsPort);
    loading = false;
    await probe;
    const cookie = await sessionCookieFor(server.publicOrigin, 'bench@acme.dev');
    const response = await fetch(`${server.url}/api/search?q=deploy`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/api/search answered ${response.status} once ready`);
    const firstSearchMs = performance.now() - started;
    const residentMb = memory.stop();
    const running = { pid: server.pid, logFile, metricsPort };
    const rebuild = options.rebuild ? await rebuildOnce('stylesheet', running, siteDirectory) : undefined;
    // Several in a row: memory a rebuild leaves behind shows at the next one's peak, not at the first.
    const pagesRebuilds = [];
    for (let rebuilt = 0; options.rebuild && rebuilt < pageRebuilds; rebuilt += 1) {
      pagesRebuilds.push(await rebuildOnce('pages', running, siteDirectory));
    }
    return {
      healthyMs,
      readyMs,
      firstSearchMs,
      longestHealthMs,
      loopLagMs,
      unavailable,
      residentMb,
      rebuild,
      pagesRebuilds,
    };
  } finally {
    memory.stop();
    await server.stop();
  }
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`);
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;

await ensureCompiledServer();
const base = readDocSections(siteBuildDirectory);
console.log('Growth: the handbook and generated handbooks N times larger (in process unless marked "process")');
console.log(
  `| handbook | sections | search box results, as /api/search makes them, p50 / p99 | askAi docs-only p50 / p99 | index built in | longest block while indexing | process: prepared at build in | process, prepared: healthy / search ready / first search (signed in once ready) | loop lag max while loading / longest /healthz wait | RSS peak / after | process, a stylesheet rebuilt: swapped in / loop lag max, an idle process's / RSS peak | process, every page rebuilt ${pageRebuilds} times in a row by another process under nice ${buildNiceness} (search prepared again): swapped in after its last file / loop lag max (its longest while the pages were written, while their search was prepared, until swapped in), and an idle Node process's beside it (the machine's own) / RSS peak | process, pages parsed at start: search ready / loop lag max / longest /healthz wait / RSS peak / after | process, started again on the search it kept: search ready / loop lag max / longest /healthz wait / RSS peak / after | load average |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
/** The machine's 1-minute load average: figures taken under a higher one are slower, so compare within one run. */
const load = () => loadavg()[0]?.toFixed(1) ?? 'n/a';
const measured = new Map<number, { search: number; answer: number }>();
for (const copies of sizes) {
  const loadBefore = load();
  let row = `| ${copies}x | | not run | not run | not run | not run |`;
  if (!processOnly) {
    const sections = heldAsTheServerHolds(copies === 1 ? base : largerHandbook(base, copies));
    const { engine, buildMs, longestBlockMs } = await buildAsTheServerDoes(sections);
    const { search, answer } = inProcess(engine);
    measured.set(copies, { search: search.p50, answer: answer.p50 });
    row = `| ${copies}x | ${sections.length} | ${ms(search.p50)} / ${ms(search.p99)} | ${ms(answer.p50)} / ${ms(answer.p99)} | ${seconds(buildMs)} | ${ms(longestBlockMs)} |`;
  }
  try {
    const { prepareMs, prepared, parsed, kept } = await asProcess(copies, parsedPathAt(copies));
    const startCells = (start: typeof parsed) =>
      start
        ? `${seconds(start.readyMs)} / ${ms(start.loopLagMs)} / ${ms(start.longestHealthMs)} / ${start.residentMb.peak.toFixed(0)} / ${start.residentMb.last.toFixed(0)} MB`
        : 'not run';
    const rebuildCells = (rebuild: typeof prepared.rebuild) =>
      rebuild
        ? `${seconds(rebuild.swapMs)} / ${ms(rebuild.loopLagMs)}${Number.isNaN(rebuild.phases.writtenMs) ? '' : ` (written ${ms(rebuild.phases.writtenMs)}, prepared ${ms(rebuild.phases.preparedMs)}, swapped in ${ms(rebuild.phases.swappedMs)})`}, idle process beside it ${ms(rebuild.referenceLagMs)} / ${rebuild.residentMb.peak.toFixed(0)} MB`
        : 'not run';
    /** The worst of the rebuilds in a row, then each one's. */
    const rebuildsCells = (rebuilds: ReadonlyArray<typeof prepared.rebuild>) => {
      const done = rebuilds.filter((rebuild) => rebuild !== undefined);
      if (done.length === 0) return 'not run';
      const worst = (of: (rebuild: (typeof done)[number]) => number) => Math.max(...done.map(of));
      const each = done.map((rebuild) => `${rebuildCells(rebuild)}, after ${rebuild.residentMb.last.toFixed(0)} MB`);
      return `${done.length} in a row, worst: ${seconds(worst((rebuild) => rebuild.swapMs))} / ${ms(worst((rebuild) => rebuild.loopLagMs))} (idle process ${ms(worst((rebuild) => rebuild.referenceLagMs))}) / ${worst((rebuild) => rebuild.residentMb.peak).toFixed(0)} MB; each: ${each.join('; ')}`;
    };
    console.log(
      `${row} ${seconds(prepareMs)} | ${seconds(prepared.healthyMs)} / ${seconds(prepared.readyMs)} / ${seconds(prepared.firstSearchMs)} (${prepared.unavailable} x indexing meanwhile) | ${ms(prepared.loopLagMs)} / ${ms(prepared.longestHealthMs)} | ${prepared.residentMb.peak.toFixed(0)} / ${prepared.residentMb.last.toFixed(0)} MB | ${rebuildCells(prepared.rebuild)} | ${rebuildsCells(prepared.pagesRebuilds)} | ${startCells(parsed)} | ${startCells(kept)} | ${loadBefore} -> ${load()} |`,
    );
  } catch (error) {
    // The whole reason, log lines included, on the row: a failed start is diagnosed from the table alone.
    const reason = (error as Error).message.replaceAll('\n', ' / ').slice(0, 600);
    console.log(`${row} ${reason} | | | | | | | ${loadBefore} -> ${load()} |`);
  }
}
const ten = measured.get(10);
const hundred = measured.get(100);
if (ten && hundred) {
  const exponent = (from: number, to: number) => Math.log(to / from) / Math.log(10);
  console.log(
    `  growth exponent 10x -> 100x: search ${exponent(ten.search, hundred.search).toFixed(2)}, askAi docs-only ${exponent(ten.answer, hundred.answer).toFixed(2)} (goal <= ${goals.exponent})`,
  );
}
console.log(
  `  goals at 100x: search p50 <= ${goals.searchP50} ms, p99 <= ${goals.searchP99} ms; askAi docs-only p50 <= ${goals.answerP50} ms; index ready <= ${seconds(goals.readyMs)}; longest block <= ${goals.blockMs} ms; RSS <= ${goals.residentMb} MB`,
);
