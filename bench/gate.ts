/**
 * What the sign-in gate costs: requests per second and p99 latency for a doc page and for main.js with a valid
 * session, against the same files served ungated by the same server code in the same run; plus server memory.
 * Prints figures only; it never fails on a number.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { siteBuildDirectory } from '../e2e/harness';

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 16;

const server = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'gate-server.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
// oidc-provider prints notices on stdout too; the servers' addresses are the one JSON line.
const firstLine = await new Promise<string>((resolve) => {
  const lines = createInterface({ input: server.stdout });
  lines.on('line', (line) => {
    if (line.startsWith('{')) {
      lines.close();
      resolve(line);
    }
  });
});
const { gated, ungated, cookie } = JSON.parse(firstLine) as { gated: string; ungated: string; cookie: string };

function serverRssMegabytes(): number {
  const match = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(match?.[1] ?? 0) / 1024;
}

let peakMemory = 0;

async function measure(url: string, headers: Record<string, string>) {
  const sampler = setInterval(() => {
    peakMemory = Math.max(peakMemory, serverRssMegabytes());
  }, 250);
  const result = await autocannon({ url, connections, duration: durationSeconds, headers });
  clearInterval(sampler);
  if (result.non2xx > 0) throw new Error(`${url} answered ${result.non2xx} non-2xx responses during the run.`);
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99 };
}

const mainScript = readdirSync(path.join(siteBuildDirectory, 'assets', 'js')).find((file) =>
  /^main\..*\.js$/.test(file),
);
const targets = [
  { name: 'doc page /firestore-ttl', path: '/firestore-ttl' },
  { name: `main.js (${mainScript})`, path: `/assets/js/${mainScript}` },
];
const encoding = { 'accept-encoding': 'br' };
const idleMemory = serverRssMegabytes();

console.log(`Gate cost (${connections} connections, ${durationSeconds} s each, brotli, same process, same build)`);
for (const target of targets) {
  await measure(`${ungated}${target.path}`, encoding);
  const baseline = await measure(`${ungated}${target.path}`, encoding);
  const withGate = await measure(`${gated}${target.path}`, { ...encoding, cookie });
  const ratio = withGate.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`  ${target.name}`);
  console.log(
    `    ungated  ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99} ms\n` +
      `    gated    ${withGate.requestsPerSecond.toFixed(0)} req/s, p99 ${withGate.p99} ms\n` +
      `    gated/ungated throughput ${(ratio * 100).toFixed(1)} % (gate costs ${((1 - ratio) * 100).toFixed(1)} %)`,
  );
}
console.log(`  server memory (RSS): idle ${idleMemory.toFixed(0)} MB, peak under load ${peakMemory.toFixed(0)} MB`);
server.kill();
