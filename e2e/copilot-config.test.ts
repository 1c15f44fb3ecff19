import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { test } from './fixtures';
import { siteSourceDirectory } from './harness';
import { Copilot } from './pages/copilot';

// A second build of the site with two chat actions switched off in its config; the server starts over it at the
// first test.
const buildDirectory = mkdtempSync(path.join(tmpdir(), 'copilot-config-'));
beforeAll(() => {
  const build = spawnSync('npx', ['docusaurus', 'build', '--out-dir', buildDirectory], {
    cwd: siteSourceDirectory,
    env: { ...process.env, COPILOT_DISABLED_ACTIONS: 'allowCopy,allowFeedbackNegative' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`The site build failed:\n${build.stderr}`);
}, 180_000);
afterAll(() => rmSync(buildDirectory, { recursive: true, force: true }));
test.override({ serverEnvironment: { SITE_DIR: buildDirectory }, readerEmail: 'config-reader@acme.dev' });

describe('chat actions switched off in the site config', () => {
  test('leaves Copy and Bad response out, and keeps the others', async ({ docsSite: site }) => {
    const copilot = new Copilot(site.page);
    await copilot.askFirstOn(site, '/', 'How do I use WSL?');
    expect(await copilot.action(0, 'Copy').count()).toBe(0);
    expect(await copilot.action(0, 'Bad response').count()).toBe(0);
    expect(await copilot.action(0, 'Good response').count()).toBe(1);
    expect(await copilot.action(0, 'Refresh').count()).toBe(1);
  });
});
