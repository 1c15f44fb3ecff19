/**
 * Prints Dev Copilot's figures: the JavaScript a doc page loads before and after the reader opens the chat, the time
 * from the click to a composer that takes input (cold cache: clicked as soon as the page is interactive, before its
 * idle fetch of the chat's code, and after it; warm cache: a later page of the same visit), and the time from sending
 * a question to the first streamed text.
 * Never fails on a number; it only measures. Needs a built site (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser, siteBuildDirectory, startServer } from '../e2e/harness';
import { signInContext } from '../e2e/pages/sign-in-pages';
import { startFakeModelServer } from '../server/test-support/fake-model-server.js';

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (scripts: Iterable<string>) =>
  [...scripts].reduce(
    (total, script) => total + gzipSync(readFileSync(path.join(siteBuildDirectory, script))).length,
    0,
  );
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Milliseconds from pressing Enter on a question to the first text of its answer on screen. */
async function timeToFirstText(page: Page): Promise<number> {
  await page.getByPlaceholder('Write a message...').fill('How do I create a TTL policy for expireAt in Firestore?');
  const sent = performance.now();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => {
    const answer = document.querySelector('[data-testid="copilot-assistant-message"] [data-status]');
    return (answer?.textContent ?? '').trim().length > 0;
  });
  return performance.now() - sent;
}

/**
 * A reader's office link rather than loopback (where fetching the chat's code costs nothing): 40 ms round trips,
 * 20 Mbit/s down, through Chromium's own throttling.
 */
async function officeLink(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: 2_500_000,
    uploadThroughput: 1_250_000,
  });
}

/** Milliseconds from clicking the launcher to a composer that takes input. */
async function clickToComposer(page: Page): Promise<number> {
  const clicked = performance.now();
  await page.getByTestId('copilot-launcher').click();
  await page.getByPlaceholder('Write a message...').waitFor();
  return performance.now() - clicked;
}

const runs = 5;
const server = await startServer({ LOG_LEVEL: 'silent', ASK_REQUESTS_PER_MINUTE: '1000' });
const browser = await launchBrowser();
const openTimes: number[] = [];
const openAtOnceTimes: number[] = [];
const openWarmTimes: number[] = [];
const firstTextTimes: number[] = [];
let firstPaint = new Set<string>();
let afterOpen = new Set<string>();

for (let run = 0; run < runs; run++) {
  // A fresh context each run: a cold cache, as for a reader opening the chat for the first time.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInContext(context, server.baseUrl, `bench${run}@acme.dev`);
  const page = await context.newPage();
  await officeLink(page);
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
  });
  if (run === 0) {
    // What the first paint needs: the page's idle time is kept from fetching the chat ahead.
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
  }
  await page.goto(`${server.baseUrl}/firestore-ttl`, { waitUntil: 'networkidle' });
  if (run === 0) firstPaint = new Set(scripts);

  // Run 0 kept its idle time from fetching ahead (for the first-paint figure), so it is not an "after idle" click.
  const opened = await clickToComposer(page);
  if (run > 0) openTimes.push(opened);
  if (run === 0) {
    await page.waitForLoadState('networkidle');
    afterOpen = new Set(scripts);
  }

  firstTextTimes.push(await timeToFirstText(page));
  // Warm: another page of the same visit, its scripts in the browser's cache.
  // Settled first: on a machine under load, a click during hydration measures the page's own start, not the chat.
  await page.goto(`${server.baseUrl}/firebase-gcp-pitfalls`, { waitUntil: 'networkidle' });
  openWarmTimes.push(await clickToComposer(page));
  await context.close();

  // Cold and impatient: clicked as soon as the page is interactive, before any idle time.
  const atOnce = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInContext(atOnce, server.baseUrl, `bench-at-once${run}@acme.dev`);
  const atOncePage = await atOnce.newPage();
  await officeLink(atOncePage);
  await atOncePage.goto(`${server.baseUrl}/firestore-ttl`, { waitUntil: 'commit' });
  await atOncePage.waitForSelector('html[data-has-hydrated="true"]');
  openAtOnceTimes.push(await clickToComposer(atOncePage));
  await atOnce.close();
}
await server.close();

/** The same question through a model: a local OpenAI-compatible server that waits 300 ms before its first token. */
const providerDelayMs = 300;
const fake = await startFakeModelServer();
fake.behave({
  reply: 'Create the policy in [the TTL guide](/firestore-ttl) and wait for it to become active.',
  firstChunkDelayMs: providerDelayMs,
  chunkDelayMs: 20,
});
const modelServer = await startServer({
  LOG_LEVEL: 'silent',
  ASK_REQUESTS_PER_MINUTE: '1000',
  COPILOT_PROVIDER: 'openai-compatible',
  COPILOT_MODEL: 'bench-model',
  COPILOT_BASE_URL: `${fake.url}/v1`,
});
const modelFirstText: number[] = [];
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInContext(context, modelServer.baseUrl, `bench-model${run}@acme.dev`);
  const page = await context.newPage();
  await page.goto(`${modelServer.baseUrl}/firestore-ttl`, { waitUntil: 'networkidle' });
  await page.getByTestId('copilot-launcher').click();
  modelFirstText.push(await timeToFirstText(page));
  await context.close();
}
await browser.close();
await modelServer.close();
await fake.close();

const chatScripts = [...afterOpen].filter((script) => !firstPaint.has(script));
const firstPaintBytes = gzipped(firstPaint);
const chatBytes = gzipped(chatScripts);
console.log('Dev Copilot figures');
console.log(
  `  doc page first-paint JS (chat closed)  ${kilobytes(firstPaintBytes)} gzipped in ${firstPaint.size} files`,
);
console.log(
  `  JS added when the chat opens           ${kilobytes(chatBytes)} gzipped in ${chatScripts.length} files (${((chatBytes / firstPaintBytes) * 100).toFixed(0)} % of the first paint)`,
);
const openFigure = (label: string, times: number[]) =>
  console.log(
    `  ${label.padEnd(39)}median ${median(times).toFixed(0)} ms over ${times.length} runs (max ${Math.max(...times).toFixed(0)} ms)`,
  );
console.log('  (pages and clicks below on a 40 ms, 20 Mbit/s link)');
openFigure('click to composer, cold, at once', openAtOnceTimes);
openFigure('click to composer, cold, after idle', openTimes);
openFigure('click to composer, warm cache', openWarmTimes);
console.log(
  `  send to first streamed text (docs-only) median ${median(firstTextTimes).toFixed(0)} ms over ${runs} runs (max ${Math.max(...firstTextTimes).toFixed(0)} ms)`,
);
console.log(
  `  send to first streamed text (model)   median ${median(modelFirstText).toFixed(0)} ms over ${runs} runs, of which the local provider waits ${providerDelayMs} ms before its first token`,
);
