import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltPage } from '../search/sections.js';
import { readBuiltSite } from './built-site.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function siteWith(files: Record<string, string>) {
  const directory = mkdtempSync(path.join(tmpdir(), 'built-site-'));
  directories.push(directory);
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(directory, relative)), { recursive: true });
    writeFileSync(path.join(directory, relative), text);
  }
  return directory;
}

/** The key readBuiltSite gives the build's sections, and the pages it would parse. */
async function sectionsRequest(directory: string): Promise<{ key: string; pages: BuiltPage[] }> {
  const { site, pages } = readBuiltSite(directory, { maxFileBytes: 1e6, maxTotalBytes: 1e7 });
  return { key: site.sectionsKey, pages };
}

describe('readBuiltSite', () => {
  it('keysTheSectionsOnThePagesText: an asset changing leaves the key, a page changing moves it', async () => {
    const directory = siteWith({
      'runbook/index.html': '<h1>Runbook</h1>',
      'assets/js/main.js': 'console.log(1)',
    });
    const first = await sectionsRequest(directory);
    expect(first.pages.map((page) => page.relative)).toEqual(['runbook/index.html']);

    writeFileSync(path.join(directory, 'assets/js/main.js'), 'console.log(2)');
    expect((await sectionsRequest(directory)).key).toBe(first.key);

    writeFileSync(path.join(directory, 'runbook/index.html'), '<h1>Runbook, edited</h1>');
    const edited = await sectionsRequest(directory);
    expect(edited.key).not.toBe(first.key);

    // A page moved to another address is another page, even with the same text.
    rmSync(path.join(directory, 'runbook'), { recursive: true });
    mkdirSync(path.join(directory, 'runbooks'));
    writeFileSync(path.join(directory, 'runbooks/index.html'), '<h1>Runbook, edited</h1>');
    expect((await sectionsRequest(directory)).key).not.toBe(edited.key);
  });

  it('holdsTheAssetsFirst: pages past the memory limit are streamed from disk, the assets every page loads are not', () => {
    const page = `<h1>Page</h1>${'x'.repeat(1000)}`;
    const directory = siteWith({
      // Upper case sorts before "assets", as a handbook's own folders do ("Development Resources").
      ...Object.fromEntries(Array.from({ length: 20 }, (_, at) => [`Guides ${at}/index.html`, page])),
      'assets/js/main.js': 'y'.repeat(3000),
      'index.html': page,
    });
    const { site } = readBuiltSite(directory, { maxFileBytes: 1e6, maxTotalBytes: 8000 });
    const file = (urlPath: string) => site.files.find((built) => built.urlPath === urlPath);
    expect(file('/assets/js/main.js')?.held.identity).toBeDefined();
    const pages = site.files.filter((built) => built.urlPath.endsWith('.html'));
    expect(pages.filter((built) => built.held.identity).length).toBeGreaterThan(0);
    expect(pages.filter((built) => built.onDisk.identity).length).toBeGreaterThan(0);
    expect(site.files.reduce((sum, built) => sum + (built.held.identity?.length ?? 0), 0)).toBeLessThanOrEqual(8000);
  });
});
