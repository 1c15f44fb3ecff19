/** Load generators for bench/serving.ts: wrk when installed (it costs the machine less), otherwise autocannon. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** A cookie shaped as ours (43 + 22 base64url characters) that no server issued, different at every call. */
export const madeUpSessionCookie = (name: string) =>
  `${name}=${randomBytes(32).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

/** wrk's Lua hook that sends a fresh made-up session cookie with every request. */
const madeUpCookieScript = (
  name: string,
) => `local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
math.randomseed(os.time())
local function text(length)
  local picked = {}
  for index = 1, length do
    local at = math.random(1, 64)
    picked[index] = chars:sub(at, at)
  end
  return table.concat(picked)
end
request = function()
  wrk.headers["cookie"] = "${name}=" .. text(43) .. "." .. text(22)
  return wrk.format()
end
`;

async function runWrk(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  madeUpCookieName?: string,
): Promise<Throughput> {
  const headerArguments = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const scriptDirectory = madeUpCookieName ? mkdtempSync(path.join(tmpdir(), 'wrk-')) : undefined;
  const scriptArguments: string[] = [];
  if (scriptDirectory && madeUpCookieName) {
    const script = path.join(scriptDirectory, 'made-up-cookie.lua');
    writeFileSync(script, madeUpCookieScript(madeUpCookieName));
    scriptArguments.push('-s', script);
  }
  try {
    const { stdout } = await promisify(execFile)(
      wrkBinary,
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...scriptArguments, ...headerArguments, url],
      { timeout: (seconds + 30) * 1000 },
    );
    return parseWrkReport(stdout);
  } finally {
    if (scriptDirectory) rmSync(scriptDirectory, { recursive: true, force: true });
  }
}

async function runAutocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  madeUpCookieName?: string,
): Promise<Throughput> {
  const setupRequest = (request: autocannon.Request) =>
    madeUpCookieName
      ? { ...request, headers: { ...request.headers, cookie: madeUpSessionCookie(madeUpCookieName) } }
      : request;
  const result = await autocannon({ url, connections, duration: seconds, headers, requests: [{ setupRequest }] });
  return {
    requestsPerSecond: result.requests.average,
    p99Milliseconds: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    socketErrors: result.errors,
  };
}

/**
 * Requests per second and p99 of one URL at full speed, 32 connections, with the chosen tool; with
 * `madeUpCookieName`, every request carries a different made-up session cookie of that name.
 */
export function measureThroughput(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  madeUpCookieName?: string,
) {
  return loadTool === 'wrk'
    ? runWrk(url, headers, seconds, madeUpCookieName)
    : runAutocannon(url, headers, seconds, madeUpCookieName);
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
