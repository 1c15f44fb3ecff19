import { describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { searchQueries } from '../store/schema.js';
import { markSearchResultOpened, pruneSearchQueries } from '../store/search-queries.js';
import { createSearchLog, searchedFromHandbookPages } from './search-log.js';

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

    it('forgets searches older than the retention', async () => {
      expect(await pruneSearchQueries(store.db, new Date(Date.now() + 1000))).toBe(3);
      expect(await rows()).toEqual([]);
    });
  });
}
