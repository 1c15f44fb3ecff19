/**
 * How the production server serves the handbook: start time and idle memory, throughput against nginx over the same
 * build in the same run, memory under a mixed load and with ten times the pages, and a rebuild swapped in under load.
 * The server is the compiled one, started as production starts it. Prints figures only; it never fails on a number.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sessionCookieFor } from '../e2e/sign-in';
import { isSiteBuildStale } from '../server/scripts/site-build.mjs';
import {
  connections,
  countResponses,
  loadTool,
  madeUpSessionCookie,
  measureThroughput,
  type ResponseCounts,
  type Throughput,
} from './load';
import { runMixedLoad } from './mixed-load';
import { startNginx } from './nginx';
import { runRebuildUnderLoad } from './rebuild-under-load';
import { ensureCompiledServer, type ServerProcess, sampleMemory, startServerProcess } from './server-process';
import { copyBuild, docPageUrlPath, mainScriptUrlPath, multiplyPages, pageUrlPaths } from './site-copies';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const mixedSeconds = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
const warmUpSeconds = 2;
const benchEmail = 'bench@acme.dev';
/** The session cookie's name over plain http (PUBLIC_URL's default). */
const sessionCookieName = 'acme_session';
/** More readers for the mixed load: Dev Copilot's limit is per reader. */
const otherReaderEmails = ['bench-2@acme.dev', 'bench-3@acme.dev', 'bench-4@acme.dev', 'bench-5@acme.dev'];

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const row = (label: string, value: string) => console.log(`  ${label.padEnd(40)}${value}`);
const megabytes = (value: number) => `${value.toFixed(0)} MB`;
const verdict = (met: boolean) => (met ? 'met' : 'missed');

const compiledNow = await ensureCompiledServer();
// The harness loads server/dist, so it comes after the compile.
const { freePort, siteBuildDirectory } = await import('../e2e/harness');
if (isSiteBuildStale()) {
  throw new Error(
    `${siteBuildDirectory} is missing or older than the site's sources: run \`npm run build -w site\` first.`,
  );
}
const docPage = docPageUrlPath(siteBuildDirectory);
const mainScript = mainScriptUrlPath(siteBuildDirectory);
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-serving-bench-'));
const dataDirectory = path.join(workDirectory, 'data');
mkdirSync(dataDirectory);
const stops: Array<() => Promise<void>> = [];
let serverStarts = 0;

async function startServer(siteDirectory?: string, viaNpmStart = false) {
  serverStarts += 1;
  const logFile = path.join(workDirectory, `server-${serverStarts}.log`);
  const server = await startServerProcess({
    port: await freePort(),
    dataDirectory,
    logFile,
    siteDirectory,
    viaNpmStart,
  });
  stops.push(server.stop);
  return server;
}

function describeCounts(counts: ResponseCounts): string {
  return (
    `${counts.responses} responses: ${counts.ok} 2xx, ${counts.rateLimited} 429, ` +
    `${counts.otherClientErrors} other 4xx, ${counts.serverErrors} 5xx, ${counts.socketErrors} socket errors`
  );
}

function describeThroughput(figures: Throughput, expected = 'non-2xx'): string {
  return (
    `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${figures.p99Milliseconds.toFixed(1).padStart(5)} ms  ` +
    `${figures.non2xx} ${expected} of ${figures.requests}, ${figures.socketErrors} socket errors`
  );
}

async function measureStart() {
  console.log('\n1. Start (node server/dist/start.js; PORT, DATA_DIR set; SITE_DIR default)');
  const first = await startServer();
  row(
    'first start, fresh DATA_DIR',
    `${first.millisecondsToHealthy.toFixed(0)} ms to the first 200 from /healthz (goal <= 2000 ms)`,
  );
  await sleep(10_000);
  row('idle RSS 10 s after the first start', megabytes(first.residentMegabytes()));
  await first.stop();
  const viaNpm = await startServer(undefined, true);
  row('`npm start`, same DATA_DIR', `${viaNpm.millisecondsToHealthy.toFixed(0)} ms (goal <= 2000 ms)`);
  await viaNpm.stop();
  const second = await startServer();
  row('third start, same DATA_DIR', `${second.millisecondsToHealthy.toFixed(0)} ms`);
  return second;
}

async function warmedUpThroughput(url: string, headers: Record<string, string>, madeUpCookieName?: string) {
  await measureThroughput(url, headers, warmUpSeconds, madeUpCookieName);
  return measureThroughput(url, headers, seconds, madeUpCookieName);
}

async function compareWithNginx(server: ServerProcess, cookie: string) {
  console.log(`\n2. Throughput against nginx (${loadTool}, ${connections} connections, ${seconds} s, gzip)`);
  const nginx = await startNginx(path.join(workDirectory, 'nginx'), await freePort(), siteBuildDirectory);
  if ('problem' in nginx) {
    row('skipped', nginx.problem);
    return;
  }
  stops.push(nginx.stop);
  const page = { accept: 'text/html', 'accept-encoding': 'gzip' };
  const targets = [
    { name: `doc page ${docPage}`, path: docPage, headers: page, signedIn: true, status: 200, goal: 0.4, p99: 10 },
    {
      name: 'main.js',
      path: mainScript,
      headers: { 'accept-encoding': 'gzip' },
      signedIn: true,
      status: 200,
      goal: 0.4,
    },
    { name: `sign-in page (401) at ${docPage}`, path: docPage, headers: page, signedIn: false, status: 401, goal: 0.6 },
    {
      name: 'sign-in page (401), a different made-up session cookie each time',
      path: docPage,
      headers: page,
      signedIn: false,
      madeUpCookies: true,
      status: 401,
      goal: 0.6,
    },
  ];
  for (const target of targets) {
    const oursHeaders = target.signedIn ? { ...target.headers, cookie } : target.headers;
    // nginx gets the same cookies and ignores them.
    const madeUpCookieName = target.madeUpCookies ? sessionCookieName : undefined;
    const probeHeaders = madeUpCookieName
      ? { ...oursHeaders, cookie: madeUpSessionCookie(madeUpCookieName) }
      : oursHeaders;
    const probe = await fetch(`${server.url}${target.path}`, { headers: probeHeaders });
    await probe.arrayBuffer();
    const theirs = await warmedUpThroughput(`${nginx.url}${target.path}`, target.headers, madeUpCookieName);
    const ours = await warmedUpThroughput(`${server.url}${target.path}`, oursHeaders, madeUpCookieName);
    const ratio = ours.requestsPerSecond / theirs.requestsPerSecond;
    const p99Goal = target.p99 === undefined ? '' : ` and p99 <= ${target.p99} ms`;
    const met = ratio >= target.goal && (target.p99 === undefined || ours.p99Milliseconds <= target.p99);
    console.log(`  ${target.name} (ours answers ${probe.status}, expected ${target.status})`);
    row('  nginx', describeThroughput(theirs));
    row('  ours', describeThroughput(ours, target.status === 401 ? 'non-2xx (401s, expected)' : 'non-2xx'));
    row('  ours/nginx', `${ratio.toFixed(2)}x (goal >= ${target.goal}x${p99Goal}: ${verdict(met)})`);
  }
  await nginx.stop();
}

async function measureMixedLoad(server: ServerProcess, readerCookies: string[]) {
  console.log(
    `\n3. Memory under a mixed load (${mixedSeconds} s: pages, chunks, search, askAi over ${readerCookies.length} readers)`,
  );
  row('RSS before', megabytes(server.residentMegabytes()));
  const memory = sampleMemory(server.pid);
  const counts = await runMixedLoad({
    url: server.url,
    publicOrigin: server.publicOrigin,
    siteDirectory: siteBuildDirectory,
    readerCookies,
    seconds: mixedSeconds,
  });
  const { peak, last } = memory.stop();
  row('peak RSS', `${megabytes(peak)} (goal <= 350 MB: ${verdict(peak <= 350)})`);
  row('RSS at the end', megabytes(last));
  for (const [kind, kindCounts] of Object.entries(counts)) row(kind, describeCounts(kindCounts));
}

async function measureTenTimesTheHandbook() {
  const siteDirectory = path.join(workDirectory, 'site-10x');
  copyBuild(siteBuildDirectory, siteDirectory);
  multiplyPages(siteDirectory, 10);
  const pages = pageUrlPaths(siteDirectory);
  console.log(`\n4. Ten times the handbook (${pages.length} pages, SITE_DIR a copy of the build)`);
  const server = await startServer(siteDirectory);
  row('start, same DATA_DIR', `${server.millisecondsToHealthy.toFixed(0)} ms to healthy`);
  await sleep(10_000);
  row('idle RSS after 10 s', megabytes(server.residentMegabytes()));
  const cookie = await sessionCookieFor(server.publicOrigin, benchEmail);
  const memory = sampleMemory(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: 16,
    duration: 20,
    headers: { cookie, accept: 'text/html', 'accept-encoding': 'br, gzip' },
    requests: pages.map((page) => ({ method: 'GET', path: page })),
  });
  const { peak, last } = memory.stop();
  row(
    'RSS after 20 s of page load',
    `${megabytes(last)}, peak ${megabytes(peak)} (goal <= 300 MB: ${verdict(peak <= 300)})`,
  );
  row('pages', describeCounts(countResponses([result])));
  await server.stop();
}

async function measureRebuildUnderLoad() {
  console.log('\n5. A rebuild written in place under load (doc page and main.js, 15 s, 8 connections each)');
  const siteDirectory = path.join(workDirectory, 'site-rebuild');
  copyBuild(siteBuildDirectory, siteDirectory);
  const server = await startServer(siteDirectory);
  const cookie = await sessionCookieFor(server.publicOrigin, benchEmail);
  const rebuild = await runRebuildUnderLoad({
    url: server.url,
    cookie,
    siteDirectory,
    docPage,
    mainScript,
    seconds: 15,
  });
  const failures = rebuild.counts.responses - rebuild.counts.ok + rebuild.counts.socketErrors + rebuild.pollFailures;
  const byStatus = Object.entries(rebuild.counts.notOkByStatus).map(([status, count]) => `${count}x ${status}`);
  row('requests', `${rebuild.counts.responses} under load, ${rebuild.counts.socketErrors} socket errors`);
  row(
    'failed (not 200, or socket error)',
    [`${failures} (goal 0: ${verdict(failures === 0)})`, ...byStatus].join(', '),
  );
  row(
    'rebuild written',
    `${rebuild.filesWritten} files; 404.html missing for ${rebuild.millisecondsWithout404.toFixed(0)} ms`,
  );
  row(
    'new build served',
    rebuild.servedAfterMilliseconds === undefined
      ? 'not within 30 s'
      : `${rebuild.servedAfterMilliseconds.toFixed(0)} ms after 404.html came back`,
  );
  await server.stop();
}

try {
  console.log(`Serving bench (load by ${loadTool} in part 2, autocannon elsewhere; temp files in ${workDirectory})`);
  row('server', `server/dist${compiledNow ? ', compiled just now' : ', current with its sources'}`);
  row('site build', `${siteBuildDirectory}: ${pageUrlPaths(siteBuildDirectory).length} pages, ${mainScript}`);
  const server = await measureStart();
  const cookie = await sessionCookieFor(server.publicOrigin, benchEmail);
  const otherCookies = await Promise.all(
    otherReaderEmails.map((email) => sessionCookieFor(server.publicOrigin, email)),
  );
  await compareWithNginx(server, cookie);
  await measureMixedLoad(server, [cookie, ...otherCookies]);
  await server.stop();
  await measureTenTimesTheHandbook();
  await measureRebuildUnderLoad();
} finally {
  for (const stop of stops.reverse()) await stop();
  rmSync(workDirectory, { recursive: true, force: true });
}
