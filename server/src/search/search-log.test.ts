import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { searchQueries } from '../store/schema.js';
import { markSearchResultOpened, pruneSearchQueries } from '../store/search-queries.js';
import { createSearchLog, maxLoggedSearchesPerDay, searchedFromHandbookPages } from './search-log.js';

describe('searchedFromHandbookPages', () => {
  it.each([
    ['same-origin', true],
    [undefined, true],
    ['cross-site', false],
    ['same-site', false],
    ['none', false],
    ['same-origin, cross-site', false],
  ])('logsOnlySearchesMadeOnTheHandbook: Sec-Fetch-Site %s is logged: %s', (secFetchSite, logged) => {
    expect(searchedFromHandbookPages(secFetchSite)).toBe(logged);
  });
});

for (const backend of testBackends.filter((candidate) => candidate.name !== 'PGlite on disk')) {
  describe.skipIf(backend.skipped)(`the search log on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const rows = () => store.db.select().from(searchQueries).orderBy(searchQueries.createdAt);

    it('keeps one row per search typed, not one per keystroke, credentials masked', async () => {
      let now = 1_000_000;
      const errors: unknown[] = [];
      const log = createSearchLog(
        store.db,
        (error) => errors.push(error),
        () => now,
      );
      const written: Array<Promise<void>> = [];
      for (const typed of ['kub', 'kube', 'kubectl', 'kubect']) {
        written.push(log.record('reader-1', typed, typed.length));
        now += 300;
      }
      now += 60_000;
      written.push(log.record('reader-1', 'token=npm_abcdefghijklmnopqrstuvwx', 0));
      written.push(log.record('reader-2', 'kub', 4));
      await Promise.all(written);

      expect((await rows()).map((row) => [row.reader, row.query, row.resultCount]).sort()).toEqual([
        ['reader-1', 'kubect', 6],
        ['reader-1', 'token=[redacted]', 0],
        ['reader-2', 'kub', 4],
      ]);
      expect(errors).toEqual([]);
    });

    it("marks the reader's own newest matching search as opened, and nobody else's", async () => {
      expect(await markSearchResultOpened(store.db, { reader: 'reader-2', query: 'kubect' })).toBe(false);
      expect(await markSearchResultOpened(store.db, { reader: 'reader-1', query: 'kubect' })).toBe(true);
      const opened = (await rows()).filter((row) => row.clicked).map((row) => [row.reader, row.query]);
      expect(opened).toEqual([['reader-1', 'kubect']]);
    });

    it('adds at most maxLoggedSearchesPerDay rows a reader a day (a script searching on), then answers unlogged', async () => {
      let now = Date.parse('2026-12-01T10:00:00Z');
      const log = createSearchLog(
        store.db,
        () => {},
        () => now,
      );
      const written: Array<Promise<void>> = [];
      // Unrelated searches a minute apart: each would be a row of its own.
      for (let count = 0; count < maxLoggedSearchesPerDay + 20; count += 1) {
        written.push(log.record('script', `${count % 2 ? 'alpha' : 'beta'} ${count}`, 1));
        now += 31_000;
      }
      written.push(log.record('reader-3', 'ttl', 2));
      await Promise.all(written);
      const kept = (reader: string) => rows().then((all) => all.filter((row) => row.reader === reader).length);
      expect(await kept('script')).toBe(maxLoggedSearchesPerDay);
      expect(await kept('reader-3')).toBe(1);
      // The next day counts afresh.
      now = Date.parse('2026-12-02T00:00:01Z');
      await log.record('script', 'gamma', 1);
      expect(await kept('script')).toBe(maxLoggedSearchesPerDay + 1);
      await store.db.delete(searchQueries).where(inArray(searchQueries.reader, ['script', 'reader-3']));
    });

    it('forgets searches older than the retention', async () => {
      expect(await pruneSearchQueries(store.db, new Date(Date.now() + 1000))).toBe(3);
      expect(await rows()).toEqual([]);
    });
  });
}
