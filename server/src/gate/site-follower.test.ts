import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedSearchFile } from '../search/prepared-search.js';
import { prepareBuild } from './prepare-build.js';
import { followSite, type SiteFollower } from './site-follower.js';
import type { SectionsSource } from './site-messages.js';

const page = (body: string) =>
  `<html><head><title>Runbook | Handbook</title><link rel="canonical" href="https://docs.example/runbook"></head>` +
  `<body><article><div class="theme-doc-markdown markdown"><header><h1>Runbook</h1></header>${body}</div></article></body></html>`;

const directories: string[] = [];
const followers: SiteFollower[] = [];

function writeSite(directory: string, body: string) {
  mkdirSync(path.join(directory, 'runbook'), { recursive: true });
  writeFileSync(path.join(directory, 'runbook', 'index.html'), page(body));
  writeFileSync(path.join(directory, '404.html'), '<html><body>Page Not Found</body></html>');
}

async function follow(body: string, holdFirstSearch?: Promise<unknown>, beforeStart?: (directory: string) => void) {
  const parent = mkdtempSync(path.join(tmpdir(), 'site-follower-'));
  directories.push(parent);
  const directory = path.join(parent, 'build');
  writeSite(directory, body);
  beforeStart?.(directory);
  const kept: string[] = [];
  const sources: SectionsSource[] = [];
  const follower = await followSite(directory, {
    strictTransport: false,
    quietMs: 50,
    onKeptPrevious: (reason) => kept.push(reason),
    onSectionsSource: (source) => sources.push(source),
    holdFirstSearch,
  });
  followers.push(follower);
  if (!holdFirstSearch) await follower.searchReady();
  return { directory, follower, kept, sources };
}

const restart = '<h2 id="restart">Restart</h2><p>Restart the worker with the deploy job.</p>';
const zanzibar = '<h2 id="zanzibar">Zanzibar keys</h2><p>Rotate the zanzibar keys every quarter.</p>';
// The OS file watcher reports a write in its own time (another thread); only a real wait lets it.
const changeSeen = () => new Promise((resolve) => setTimeout(resolve, 200));

afterEach(() => {
  for (const follower of followers.splice(0)) follower.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('followSite', () => {
  it('swaps a rebuilt site in whole (files, headers and search together), serving the previous one meanwhile', async () => {
    const { directory, follower, kept } = await follow(restart);
    const before = follower.current();
    expect(before.search.search('zanzibar')).toEqual([]);
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    expect(follower.current()).toBe(before);
    await changeSeen();
    await follower.settled();
    const after = follower.current();
    expect(after.search.search('zanzibar')[0]?.url).toBe('/runbook#zanzibar');
    expect(after.files.get('/runbook/index.html')?.etag).not.toBe(before.files.get('/runbook/index.html')?.etag);
    expect(kept).toEqual([]);
  });

  it('reads a change made before the build is watched (while the first index is made) once it is watched', async () => {
    let release: () => void = () => undefined;
    const { directory, follower } = await follow(restart, new Promise<void>((resolve) => (release = resolve)));
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    release();
    await follower.searchReady();
    await follower.settled();
    expect(follower.current().search.search('zanzibar')[0]?.url).toBe('/runbook#zanzibar');
  });

  it('keeps nothing of the first build once a rebuild is swapped in (its files and sections are freed)', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const { directory, follower } = await follow(restart);
    // Weak references made in a function of their own: a variable of the test would hold them itself.
    const weakly = (snapshot: ReturnType<SiteFollower['current']>) => {
      const [page0, section0] = [snapshot.files.get('/runbook/index.html'), snapshot.search.sections[0]];
      if (!page0 || !section0) throw new Error('the first build has no runbook page or no section');
      return [new WeakRef(page0), new WeakRef(section0)] as const;
    };
    const [firstPage, firstSection] = weakly(follower.current());
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    expect(follower.current().search.search('zanzibar')[0]?.url).toBe('/runbook#zanzibar');
    for (let round = 0; round < 5 && (firstPage.deref() || firstSection.deref()); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      collect();
    }
    expect({ page: firstPage.deref() === undefined, section: firstSection.deref() === undefined }).toEqual({
      page: true,
      section: true,
    });
  });

  it('still serves hashed assets of the previous build that the new one dropped, one build back', async () => {
    const { directory, follower } = await follow(restart);
    mkdirSync(path.join(directory, 'assets', 'js'), { recursive: true });
    writeFileSync(path.join(directory, 'assets', 'js', 'chunk.aaaa.js'), 'first');
    await changeSeen();
    await follower.settled();
    rmSync(path.join(directory, 'assets', 'js', 'chunk.aaaa.js'));
    writeFileSync(path.join(directory, 'assets', 'js', 'chunk.bbbb.js'), 'second');
    await changeSeen();
    await follower.settled();
    expect(follower.current().files.has('/assets/js/chunk.aaaa.js')).toBe(false);
    expect(follower.current().retiredAssets.has('/assets/js/chunk.aaaa.js')).toBe(true);
    rmSync(path.join(directory, 'assets', 'js', 'chunk.bbbb.js'));
    writeFileSync(path.join(directory, 'assets', 'js', 'chunk.cccc.js'), 'third');
    await changeSeen();
    await follower.settled();
    expect([...follower.current().retiredAssets.keys()]).toEqual(['/assets/js/chunk.bbbb.js']);
    // In a buffer of its own: a view into the previous build's shared buffer would keep all of that buffer alive.
    const retired = Object.values(follower.current().retiredAssets.get('/assets/js/chunk.bbbb.js')?.held ?? {});
    expect(retired.map((bytes) => [bytes.toString(), bytes.buffer.byteLength])).toEqual([['second', 6]]);
  });

  it('follows a build directory that is deleted and written anew, as Docusaurus does', async () => {
    const { directory, follower } = await follow(restart);
    rmSync(directory, { recursive: true });
    await changeSeen();
    writeSite(directory, zanzibar);
    await changeSeen();
    await follower.settled();
    expect(follower.current().search.search('zanzibar')[0]?.url).toBe('/runbook#zanzibar');
  });

  it('keeps the previous build while the new one has no 404 page (unfinished)', async () => {
    const { directory, follower, kept } = await follow(restart);
    rmSync(path.join(directory, '404.html'));
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    expect(follower.current().search.search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(follower.current().files.has('/404.html')).toBe(true);
    expect(kept.join('\n')).toMatch(/404/);
  });

  it('keeps the previous build when the new one has no doc pages', async () => {
    const { directory, follower, kept } = await follow(restart);
    writeFileSync(path.join(directory, 'runbook', 'index.html'), '<html><body>building…</body></html>');
    await changeSeen();
    await follower.settled();
    expect(follower.current().search.search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(kept.join('\n')).toMatch(/no doc pages/);
  });

  it('serves the pages while the first index is built, refusing searches at once until it is in', async () => {
    let release = () => {};
    const { follower } = await follow(
      restart,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const building = follower.current();
    expect(building.files.has('/runbook/index.html')).toBe(true);
    expect(() => building.search.search('restart')).toThrow(
      expect.objectContaining({ code: 'unavailable:search', retryAfterSeconds: expect.any(Number) }),
    );
    release();
    await follower.searchReady();
    expect(follower.current().search.search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(follower.current().files).toBe(building.files);
  });

  it('swaps a rebuild in under a stream of searches: none fails, none mixes the two builds', async () => {
    const { directory, follower } = await follow(restart);
    const oldEtag = follower.current().files.get('/runbook/index.html')?.etag;
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    const seen: Array<{ newFile: boolean; newSearch: boolean }> = [];
    let searching = true;
    const settled = (async () => {
      await changeSeen();
      await follower.settled();
      searching = false;
    })();
    while (searching) {
      const snapshot = follower.current();
      const newSearch = snapshot.search.search('zanzibar keys').length > 0;
      const oldSearch = snapshot.search.search('restart worker').length > 0;
      expect(newSearch).not.toBe(oldSearch);
      seen.push({ newFile: snapshot.files.get('/runbook/index.html')?.etag !== oldEtag, newSearch });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await settled;
    expect(seen.every(({ newFile, newSearch }) => newFile === newSearch)).toBe(true);
    expect(seen.some(({ newSearch }) => !newSearch)).toBe(true);
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });

  it("reads the search from the build's prepared file, which it never serves", async () => {
    const { follower, sources } = await follow(restart, undefined, (directory) => prepareBuild(directory));
    expect(sources).toEqual([{ prepared: true }]);
    expect(follower.current().search.search('restart worker')[0]?.url).toBe('/runbook#restart');
    expect(follower.current().files.has(`/${preparedSearchFile}`)).toBe(false);
  });

  it.each([
    ['missing', () => {}, /no prepared-search.bin/],
    [
      'stale (a page edited after it was prepared)',
      (directory: string) => {
        writeFileSync(path.join(directory, 'runbook', 'index.html'), page(restart));
        prepareBuild(directory);
        writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
      },
      /other pages/,
    ],
    [
      'corrupt',
      (directory: string) => {
        prepareBuild(directory);
        const file = path.join(directory, preparedSearchFile);
        writeFileSync(file, readFileSync(file).subarray(0, 200));
      },
      /cut short|digest|header/,
    ],
  ])('parses and indexes the pages when the prepared search is %s', async (_case, prepare, reason) => {
    const { follower, sources } = await follow(zanzibar, undefined, prepare);
    expect(sources).toEqual([{ prepared: false, reason: expect.stringMatching(reason) }]);
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });

  it("keeps the search made from a rebuild's pages when their prepared search is written after them", async () => {
    const { directory, follower, sources } = await follow(restart, undefined, (directory) => prepareBuild(directory));
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    prepareBuild(directory);
    await changeSeen();
    await follower.settled();
    expect(sources.slice(1)).toEqual([
      { prepared: false, reason: expect.stringMatching(/other pages/) },
      { unchanged: true },
    ]);
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });

  it('keeps the search of the build served when a rebuild has the same pages (its sections are not read again)', async () => {
    const { directory, follower, sources } = await follow(restart, undefined, (directory) => prepareBuild(directory));
    const before = follower.current();
    mkdirSync(path.join(directory, 'assets', 'css'), { recursive: true });
    writeFileSync(path.join(directory, 'assets', 'css', 'styles.css'), 'body { color: teal }');
    await changeSeen();
    await follower.settled();
    const after = follower.current();
    expect(after.files.has('/assets/css/styles.css')).toBe(true);
    expect(after.search).toBe(before.search);
    expect(sources).toEqual([{ prepared: true }, { unchanged: true }]);
    // A page edited: its search is read anew.
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
    expect(sources.at(-1)).toEqual({ prepared: false, reason: expect.stringMatching(/other pages/) });
  });

  it('refuses to start on a directory that holds no finished build', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'site-follower-'));
    directories.push(parent);
    await expect(followSite(parent, { strictTransport: false, onKeptPrevious: () => {} })).rejects.toThrow(
      /npm run build/,
    );
  });
});
