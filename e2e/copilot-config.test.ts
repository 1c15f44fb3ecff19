import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, siteBuildDirectory, startServer, type TestServer } from './harness';
import { Copilot } from './pages/copilot';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';

const siteDirectory = path.dirname(siteBuildDirectory);
let buildDirectory: string;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  // A second build of the site with two chat actions switched off in its config.
  buildDirectory = mkdtempSync(path.join(tmpdir(), 'copilot-config-'));
  const build = spawnSync('npx', ['docusaurus', 'build', '--out-dir', buildDirectory], {
    cwd: siteDirectory,
    env: { ...process.env, COPILOT_DISABLED_ACTIONS: 'allowCopy,allowFeedbackNegative' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`The site build failed:\n${build.stderr}`);
  server = await startServer({ SITE_DIR: buildDirectory });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (buildDirectory) rmSync(buildDirectory, { recursive: true, force: true });
});

describe('chat actions switched off in the site config', () => {
  it('leaves Copy and Bad response out, and keeps the others', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    await signInContext(context, server.baseUrl, 'config-reader@acme.dev');
    const site = new DocsSite(await context.newPage(), server.baseUrl);
    const copilot = new Copilot(site.page);
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    expect(await copilot.action(0, 'Copy').count()).toBe(0);
    expect(await copilot.action(0, 'Bad response').count()).toBe(0);
    expect(await copilot.action(0, 'Good response').count()).toBe(1);
    expect(await copilot.action(0, 'Refresh').count()).toBe(1);
    await context.close();
    expect(site.policyViolations).toEqual([]);
  });
});
