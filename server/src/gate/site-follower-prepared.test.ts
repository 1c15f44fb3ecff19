import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeSeen, follow, page, restart, zanzibar } from '../../test-support/followed-site.js';
import { preparedSearchFile, preparingMarker } from '../search/prepared-search.js';
import { prepareBuild } from './prepare-build.js';

describe('followSite and the prepared search of a build', () => {
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

  it("waits for a rebuild's search being prepared instead of parsing its pages, then reads it", async () => {
    const { directory, follower, kept, sources } = await follow(restart, undefined, (directory) =>
      prepareBuild(directory),
    );
    // What prepare-build.ts writes first; the pages change while it works.
    writeFileSync(path.join(directory, preparingMarker), '');
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    expect(kept.at(-1)).toBe('its search is being prepared');
    expect(follower.current().search.search('restart worker')[0]?.url).toBe('/runbook#restart');
    prepareBuild(directory);
    await changeSeen();
    await follower.settled();
    expect(sources).toEqual([{ prepared: true }, { prepared: true }]);
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });

  it('parses the pages of a rebuild whose preparation died long ago (its marker left behind)', async () => {
    const { directory, follower, sources } = await follow(restart, undefined, (directory) => prepareBuild(directory));
    const marker = path.join(directory, preparingMarker);
    writeFileSync(marker, '');
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(marker, anHourAgo, anHourAgo);
    writeFileSync(path.join(directory, 'runbook', 'index.html'), page(zanzibar));
    await changeSeen();
    await follower.settled();
    expect(sources.at(-1)).toEqual({ prepared: false, reason: expect.stringMatching(/other pages/) });
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });
});
