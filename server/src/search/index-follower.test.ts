import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { followSearchIndex } from './index-follower.js';

const page = (body: string) =>
  `<html><head><title>Runbook | Handbook</title><link rel="canonical" href="https://docs.example/runbook"></head>` +
  `<body><article><div class="theme-doc-markdown markdown"><header><h1>Runbook</h1></header>${body}</div></article></body></html>`;

const directories: string[] = [];
function siteWith(body: string) {
  const directory = mkdtempSync(path.join(tmpdir(), 'search-follower-'));
  directories.push(directory);
  mkdirSync(path.join(directory, 'runbook'));
  writeFileSync(path.join(directory, 'runbook', 'index.html'), page(body));
  writeFileSync(path.join(directory, '404.html'), '<html><body>Page Not Found</body></html>');
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('followSearchIndex', () => {
  it('indexes a rebuilt site in the background and swaps the new index in whole', async () => {
    const directory = siteWith('<h2 id="restart">Restart</h2><p>Restart the worker with the deploy job.</p>');
    const errors: unknown[] = [];
    const follower = followSearchIndex(directory, {
      checkIntervalMs: 0,
      onKeptPrevious: (error) => errors.push(error),
    });
    const before = follower.current();
    expect(before.search('zanzibar')).toEqual([]);
    writeFileSync(
      path.join(directory, 'runbook', 'index.html'),
      page('<h2 id="zanzibar">Zanzibar keys</h2><p>Rotate the zanzibar keys every quarter.</p>'),
    );
    // The request that notices the change is answered by the previous index, never by half of the new one.
    expect(follower.current()).toBe(before);
    await follower.settled();
    expect(follower.current().search('zanzibar')[0]?.url).toBe('/runbook#zanzibar');
    expect(errors).toEqual([]);
  });

  it('keeps the previous index when the rebuilt site has no doc pages', async () => {
    const directory = siteWith('<h2 id="restart">Restart</h2><p>Restart the worker with the deploy job.</p>');
    const errors: unknown[] = [];
    const follower = followSearchIndex(directory, {
      checkIntervalMs: 0,
      onKeptPrevious: (error) => errors.push(error),
    });
    writeFileSync(path.join(directory, 'runbook', 'index.html'), '<html><body>building…</body></html>');
    follower.current();
    await follower.settled();
    expect(follower.current().search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(String(errors[0])).toMatch(/no doc pages/);
  });

  it('keeps the previous index while a build is unfinished (no 404 page yet)', async () => {
    const directory = siteWith('<h2 id="restart">Restart</h2><p>Restart the worker with the deploy job.</p>');
    const errors: unknown[] = [];
    const follower = followSearchIndex(directory, {
      checkIntervalMs: 0,
      onKeptPrevious: (error) => errors.push(error),
    });
    rmSync(path.join(directory, '404.html'));
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page('<h2 id="half">Half</h2><p>Half written.</p>'));
    follower.current();
    await follower.settled();
    expect(follower.current().search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(String(errors[0])).toMatch(/not finished/);
  });
});
