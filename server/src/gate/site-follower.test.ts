import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  changeSeen,
  follow,
  page,
  restart,
  temporaryDirectory,
  writeSite,
  zanzibar,
} from '../../test-support/followed-site.js';
import { serverDirectory } from '../server-directory.js';
import { cannotServe, followSite, type SiteFollower } from './site-follower.js';

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

  it("serves a rebuild's unchanged files from the bytes already held, copied out of a buffer mostly freed", async () => {
    const { directory, follower } = await follow(restart);
    mkdirSync(path.join(directory, 'assets', 'js'), { recursive: true });
    writeFileSync(path.join(directory, 'assets', 'js', 'main.aaaa.js'), 'console.log("main")');
    await changeSeen();
    await follower.settled();
    const before = follower.current().files.get('/assets/js/main.aaaa.js');
    // The page changes, the script does not.
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    const after = follower.current();
    expect(after.search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
    const script = after.files.get('/assets/js/main.aaaa.js');
    expect(script?.etag).toBe(before?.etag);
    expect(script?.headers).toBe(before?.headers);
    // Its buffer also held the old page, now unused: the script's bytes were copied into one of their own.
    const held = Object.values(script?.held ?? {});
    expect(held.map((bytes) => [bytes.toString(), bytes.buffer.byteLength])).toEqual([['console.log("main")', 19]]);
    // Unchanged again: now alone in its buffer, the same bytes are served.
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(restart));
    await changeSeen();
    await follower.settled();
    expect(Object.values(follower.current().files.get('/assets/js/main.aaaa.js')?.held ?? {})).toEqual(held);
    expect(follower.current().files.get('/assets/js/main.aaaa.js')?.held.identity).toBe(held[0]);
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

  it("blames the compiled server, not the site, when one of the server's own files is missing", () => {
    const worker = path.join(serverDirectory, 'dist', 'built-site-worker.js');
    for (const reason of [`Cannot find module '${worker}'`, `Cannot find module '${worker}' imported from /x.js`]) {
      const { message } = cannotServe('/srv/site/build', reason);
      expect(message).not.toContain('Build the site first');
      expect(message).toBe(
        `The compiled server is incomplete: its own file ${worker} is missing. ` +
          'Compile it again (npm run build -w server), then start it (npm start).',
      );
    }
    // Anything else is the site's: built again, it is served.
    expect(cannotServe('/srv/site/build', "Cannot find module '/srv/site/build/x.js'").message).toBe(
      "/srv/site/build cannot be served: Cannot find module '/srv/site/build/x.js'. Build the site first (npm run build).",
    );
  });

  it('refuses to start on a directory that holds no finished build', async () => {
    const parent = temporaryDirectory();
    await expect(followSite(parent, { strictTransport: false, onKeptPrevious: () => {} })).rejects.toThrow(
      /npm run build/,
    );
  });
});
