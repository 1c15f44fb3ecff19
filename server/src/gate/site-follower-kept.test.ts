import { readdirSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeSeen, follow, page, restart, temporaryDirectory, zanzibar } from '../../test-support/followed-site.js';
import { followSite } from './site-follower.js';

const keptFiles = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.bin'));

describe('followSite and the search it keeps for a build without a prepared one', () => {
  it('parses the pages once, keeps their search (its own user only) and reads it on the next start', async () => {
    const keptSearchDirectory = path.join(temporaryDirectory(), 'data', 'search');
    const first = await follow(restart, undefined, undefined, { keptSearchDirectory });
    expect(first.sources).toEqual([
      { prepared: false, reason: expect.stringMatching(/no prepared-search.bin/), kept: 'written' },
    ]);
    const [file] = keptFiles(keptSearchDirectory);
    expect(file).toMatch(/^[0-9a-f]{40}\.bin$/);
    expect(statSync(keptSearchDirectory).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(keptSearchDirectory, `${file}`)).mode & 0o777).toBe(0o600);
    // Read back from the file: a section's body (its text) is there.
    expect(first.follower.current().search.search('deploy job')[0]?.url).toBe('/runbook#restart');

    const sources: unknown[] = [];
    const again = await followSite(first.directory, {
      strictTransport: false,
      keptSearchDirectory,
      onKeptPrevious: () => {},
      onSectionsSource: (source) => sources.push(source),
    });
    try {
      await again.searchReady();
      expect(sources).toEqual([{ prepared: false, reason: expect.stringMatching(/no prepared/), kept: 'read' }]);
      expect(again.current().search.search('deploy job')[0]?.url).toBe('/runbook#restart');
    } finally {
      again.close();
    }
  });

  it('keeps the newest other search beside a rebuild, and removes older ones and partials left long ago', async () => {
    const keptSearchDirectory = path.join(temporaryDirectory(), 'search');
    const { directory, follower, sources } = await follow(restart, undefined, undefined, { keptSearchDirectory });
    const deadPartial = path.join(keptSearchDirectory, 'old.bin.dead.partial');
    const livePartial = path.join(keptSearchDirectory, 'new.bin.live.partial');
    writeFileSync(deadPartial, '');
    writeFileSync(livePartial, '');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(deadPartial, twoHoursAgo, twoHoursAgo);
    const keys = [follower.current().sectionsKey];
    for (const body of [zanzibar, `${zanzibar}<p>Ask #dev-help first.</p>`]) {
      // Two hours pass: the files kept so far were neither read nor written since.
      for (const file of keptFiles(keptSearchDirectory).map((name) => path.join(keptSearchDirectory, name))) {
        const then = new Date(statSync(file).mtimeMs - 2 * 60 * 60 * 1000);
        utimesSync(file, then, then);
      }
      writeFileSync(path.join(directory, 'runbook', 'index.html'), page(body));
      await changeSeen();
      await follower.settled();
      keys.push(follower.current().sectionsKey);
    }
    expect(sources.map((source) => 'kept' in source && source.kept)).toEqual(['written', 'written', 'written']);
    expect(new Set(keys).size).toBe(3);
    // The one served and the one before it.
    expect(keptFiles(keptSearchDirectory).sort()).toEqual(
      keys
        .slice(1)
        .map((key) => `${key}.bin`)
        .sort(),
    );
    expect(readdirSync(keptSearchDirectory)).toContain('new.bin.live.partial');
    expect(readdirSync(keptSearchDirectory)).not.toContain('old.bin.dead.partial');
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });

  it('parses again over a damaged kept search, and says why', async () => {
    const keptSearchDirectory = path.join(temporaryDirectory(), 'search');
    const first = await follow(restart, undefined, undefined, { keptSearchDirectory });
    first.follower.close();
    const [file] = keptFiles(keptSearchDirectory);
    truncateSync(path.join(keptSearchDirectory, `${file}`), 300);
    // The same pages in another build: the same key, so the damaged file is the one looked for.
    const second = await follow(restart, undefined, undefined, { keptSearchDirectory });
    expect(second.sources).toEqual([
      { prepared: false, reason: expect.stringMatching(/the kept one is corrupt/), kept: 'written' },
    ]);
    expect(keptFiles(keptSearchDirectory)).toEqual([file]);
    expect(second.follower.current().search.search('deploy job')[0]?.url).toBe('/runbook#restart');
  });

  it('serves the search it made when it cannot keep it, and says why', async () => {
    const blocked = path.join(temporaryDirectory(), 'a-file');
    writeFileSync(blocked, '');
    const { sources, follower } = await follow(zanzibar, undefined, undefined, {
      keptSearchDirectory: path.join(blocked, 'search'),
    });
    expect(sources).toEqual([
      { prepared: false, reason: expect.any(String), kept: { notWritten: expect.stringMatching(/ENOTDIR/) } },
    ]);
    expect(follower.current().search.search('zanzibar keys')[0]?.url).toBe('/runbook#zanzibar');
  });
});
