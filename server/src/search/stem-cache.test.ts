import { describe, expect, it } from 'vitest';
import { longestStemmedWord, mostQueryWords, queryWords, stemCacheBytes } from './analyze.js';
import { queryTerms } from './query.js';

/** The `index`th word of letters only, `length` long, unlike any other: what a crafted query sends. */
function craftedWord(index: number, length: number) {
  let word = '';
  for (let rest = index; word.length < 8; rest = Math.floor(rest / 26)) word += String.fromCharCode(97 + (rest % 26));
  return word.padEnd(length, 'q');
}

const knowsNothing = () => false;
const cacheBound = 4 * 1024 * 1024;

describe('the stem cache', () => {
  it('readsOnlyTheCappedQuery: a query of thousands of new words stems 80 of them at most', () => {
    const query = Array.from({ length: 5000 }, (_, index) => craftedWord(index, 20)).join(' ');
    const before = stemCacheBytes();

    queryTerms(query, knowsNothing);

    expect(queryWords(query)).toHaveLength(mostQueryWords);
    // Two entries a word at most: the word, and it joined with its neighbour (`set up` as `setup`); each costs two bytes
    // a character of the word and of its stem, and the entry itself.
    expect(stemCacheBytes() - before).toBeLessThanOrEqual(2 * mostQueryWords * (2 * 2 * 40 + 96));
    expect(stemCacheBytes() - before).toBeGreaterThan(0);
  });

  it('neverCachesWordsLongerThanARealWord, which are kept whole', () => {
    const before = stemCacheBytes();
    const long = craftedWord(1, longestStemmedWord + 1);

    const terms = queryTerms(`${long} ${craftedWord(2, 1500)}`, knowsNothing).map(({ term }) => term);

    expect(terms).toEqual([long, craftedWord(2, 1500).slice(0, 2000 - long.length - 1)]);
    expect(stemCacheBytes()).toBe(before);
  });

  it('boundsTheCacheByBytesAgainstCraftedLongWordQueries', () => {
    // More crafted words than the cache holds: queries of as many words as are read, as long as fits.
    for (let query = 0; query < 400; query += 1) {
      const words = Array.from({ length: mostQueryWords }, (_, index) =>
        craftedWord(query * mostQueryWords + index, 24),
      );
      queryTerms(words.join(' '), knowsNothing);
      expect(stemCacheBytes()).toBeLessThanOrEqual(cacheBound);
    }
    // It filled, and stays full rather than starting over.
    expect(stemCacheBytes()).toBeGreaterThan(cacheBound - 1024);
  });
});
