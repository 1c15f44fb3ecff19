/**
 * A Docusaurus rebuild written over the build the server serves, while readers load a page and main.js, for
 * bench/serving.ts: how many requests failed meanwhile, and how soon the new build was served.
 */
import autocannon from 'autocannon';
import { countResponses } from './load';
import { rewriteBuildInPlace } from './site-copies';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export type RebuildUnderLoad = {
  url: string;
  cookie: string;
  siteDirectory: string;
  docPage: string;
  mainScript: string;
  seconds: number;
};

/** Fetches `url` until its body has `marker`; resolves with the non-200 answers seen meanwhile. */
async function waitUntilServed(url: string, cookie: string, marker: string) {
  const startedAt = performance.now();
  let failures = 0;
  while (performance.now() - startedAt < 30_000) {
    const response = await fetch(url, { headers: { cookie } }).catch(() => undefined);
    const body = (await response?.text().catch(() => '')) ?? '';
    if (response?.status !== 200) failures++;
    else if (body.includes(marker)) return { served: true, failures };
    await sleep(25);
  }
  return { served: false, failures };
}

/** Loads the page and main.js for `seconds`; a few seconds in, rewrites the build in place and waits for it. */
export async function runRebuildUnderLoad(run: RebuildUnderLoad) {
  const headers = { cookie: run.cookie, 'accept-encoding': 'br, gzip' };
  const loads = [run.docPage, run.mainScript].map((path) =>
    autocannon({ url: `${run.url}${path}`, connections: 8, duration: run.seconds, headers }),
  );
  await sleep(3000);
  const marker = `bench rebuild ${Date.now()}`;
  const rebuild = await rewriteBuildInPlace(run.siteDirectory, marker);
  const buildCompleteAt = performance.now();
  const polled = await waitUntilServed(`${run.url}${run.docPage}`, run.cookie, marker);
  const servedAfterMilliseconds = polled.served ? performance.now() - buildCompleteAt : undefined;
  const counts = countResponses(await Promise.all(loads));
  return {
    counts,
    pollFailures: polled.failures,
    ...rebuild,
    servedAfterMilliseconds,
  };
}
