/** Load generators for bench/serving.ts: wrk when installed (it costs the machine less), otherwise autocannon. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const wrkBinary = '/usr/bin/wrk';
export const loadTool = existsSync(wrkBinary) ? 'wrk' : 'autocannon';
export const connections = 32;

export type Throughput = {
  requestsPerSecond: number;
  p99Milliseconds: number;
  requests: number;
  /** wrk counts 3xx as success; autocannon does not. */
  non2xx: number;
  socketErrors: number;
};

const toMilliseconds: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

/** Reads wrk's `--latency` report. */
export function parseWrkReport(report: string): Throughput {
  const number = (pattern: RegExp) => Number(report.match(pattern)?.[1] ?? 0);
  const p99 = report.match(/^\s*99%\s+([\d.]+)(us|ms|s)\b/m);
  const socketErrors = report.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p99Milliseconds: p99 ? Number(p99[1]) * (toMilliseconds[p99[2] ?? 'ms'] ?? 1) : Number.NaN,
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses:\s+(\d+)/),
    socketErrors: socketErrors ? socketErrors.slice(1).reduce((total, count) => total + Number(count), 0) : 0,
  };
}

async function runWrk(url: string, headers: Record<string, string>, seconds: number): Promise<Throughput> {
  const headerArguments = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await promisify(execFile)(
    wrkBinary,
    ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...headerArguments, url],
    { timeout: (seconds + 30) * 1000 },
  );
  return parseWrkReport(stdout);
}

async function runAutocannon(url: string, headers: Record<string, string>, seconds: number): Promise<Throughput> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p99Milliseconds: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    socketErrors: result.errors,
  };
}

/** Requests per second and p99 of one URL at full speed, 32 connections, with the chosen tool. */
export function measureThroughput(url: string, headers: Record<string, string>, seconds: number) {
  return loadTool === 'wrk' ? runWrk(url, headers, seconds) : runAutocannon(url, headers, seconds);
}

export type ResponseCounts = {
  responses: number;
  ok: number;
  rateLimited: number;
  otherClientErrors: number;
  serverErrors: number;
  socketErrors: number;
  /** Every response that is not a 200, by status. */
  notOkByStatus: Record<string, number>;
};

/** Adds up autocannon runs' responses by status class, 429 apart; socket errors include timeouts. */
export function countResponses(results: autocannon.Result[]): ResponseCounts {
  const counts: ResponseCounts = {
    responses: 0,
    ok: 0,
    rateLimited: 0,
    otherClientErrors: 0,
    serverErrors: 0,
    socketErrors: 0,
    notOkByStatus: {},
  };
  for (const result of results) {
    counts.socketErrors += result.errors;
    for (const [status, { count = 0 }] of Object.entries(result.statusCodeStats ?? {})) {
      const code = Number(status);
      counts.responses += count;
      if (code >= 200 && code < 300) counts.ok += count;
      if (code === 429) counts.rateLimited += count;
      else if (code >= 400 && code < 500) counts.otherClientErrors += count;
      else if (code >= 500) counts.serverErrors += count;
      if (code !== 200) counts.notOkByStatus[status] = (counts.notOkByStatus[status] ?? 0) + count;
    }
  }
  return counts;
}
