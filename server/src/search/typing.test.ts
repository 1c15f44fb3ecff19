import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DocSection } from './doc-page.js';
import { createSearchEngine } from './engine.js';
import { NamePrefixes, nameWords } from './name-prefixes.js';
import { searchResults } from './search-results.js';
import { readDocSections } from './sections.js';
import { wordBeingTyped } from './typing.js';

const engine = createSearchEngine(readDocSections(fileURLToPath(new URL('../../../site/build', import.meta.url))));
const box = (typed: string) => searchResults(engine, typed, { limit: 8 });
/** The name a hit is listed by: its heading, or its page's title for a page's intro. */
const nameOf = (hit: { heading: string | null; pageTitle: string }) => hit.heading ?? hit.pageTitle;
const namedFrom = (prefix: string) => (hit: { heading: string | null; pageTitle: string }) =>
  nameWords(nameOf(hit)).some((word) => word.startsWith(prefix));

describe('the search box while a letter or two of a word is typed', () => {
  it.each(['a', 'g', 'ac', 'gi', 'np', 'in', 'fi'])('lists sections named by a word beginning with "%s"', (typed) => {
    const { results } = box(typed);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every(namedFrom(typed))).toBe(true);
    // The words it begins are marked in the titles.
    expect(results.every((hit) => hit.title.some((piece) => piece.match))).toBe(true);
  });

  it('lists page titles before headings, a first word before a later one', () => {
    const { results } = box('ac');
    expect(results[0]?.heading).toBeNull();
    const firstHeading = results.findIndex((hit) => hit.heading !== null);
    if (firstHeading >= 0) expect(results.slice(firstHeading).every((hit) => hit.heading !== null)).toBe(true);
    expect(box('np').results.map((hit) => hit.heading)).toContain('npm scripts');
  });

  it('still finds the sections of a short word the docs use as it stands', () => {
    expect(box('ci').results.some((hit) => /\bCI\b/.test(nameOf(hit)))).toBe(true);
    expect(box('mr').results[0]?.heading).toMatch(/\bMR\b/);
  });

  it('finds nothing for letters no title or heading begins a word with', () => {
    expect(box('zq').results).toEqual([]);
  });

  it('ranks a second word by the titles and headings it begins: "firestore tt" is Firestore TTL', () => {
    const [first] = box('firestore tt').results;
    expect(first?.pageTitle).toBe('Firestore TTL');
    // After other words, a stop word is a word: the heading typed stays first.
    expect(box('turning a').results[0]?.heading).toBe('Turning a policy off');
  });

  it('reads a digit or a short word the docs know after other words as it stands', () => {
    for (const typed of ['week 1', 'gitlab ci', 'turning a']) {
      expect(wordBeingTyped(engine, typed, engine.queryTerms(typed))).toBeUndefined();
    }
    expect(wordBeingTyped(engine, 'firestore t', engine.queryTerms('firestore t'))?.searched).toBe(true);
    const [first] = box('firestore t').results;
    expect(`${first?.pageTitle} ${first?.heading}`).toMatch(/Firestore/);
  });
});

describe('a half-typed word in the search box', () => {
  it.each(['firest', 'firesto'])('reads "%s" as Firestore begun, not as a typo of another word', (typed) => {
    const { results, corrected } = box(typed);
    expect(corrected).toEqual([]);
    expect(results[0]?.pageTitle).toMatch(/Firestore/);
    expect(results.slice(0, 3).every((hit) => /First-week/.test(hit.pageTitle))).toBe(false);
  });

  it('still corrects a typo that begins no word of the docs', () => {
    expect(box('wsl memroy').corrected).toEqual([{ typed: 'memroy', word: 'memory' }]);
    expect(box('deplyo').corrected).toEqual([{ typed: 'deplyo', word: 'deploy' }]);
  });

  it('is a typo when the question is a whole one (Dev Copilot reads no word as unfinished)', () => {
    expect(engine.queryTerms('firest').some((term) => term.corrected?.word === 'first')).toBe(true);
  });
});

describe("a page's title half typed or misspelt in the search box", () => {
  const pageIntros = engine.sections.filter((section) => section.level === 1);

  it.each([
    ['cloudfla', 'Cloudflare Tunnel for Local Development'],
    ['typesence', 'Installing a Typesense Instance'],
  ])('lists the page "%s" names first, then its sections', (typed, title) => {
    const [first, ...others] = box(typed).results;
    expect(first?.heading).toBeNull();
    expect(first?.pageTitle).toContain(title);
    expect(others.slice(0, 3).every((hit) => hit.pageTitle === first?.pageTitle)).toBe(true);
  });

  it('reads a misspelt last word as the word it misspells, and a word typed past its stem as no typo', () => {
    expect(box('typesence').corrected).toEqual([{ typed: 'typesence', word: 'typesense' }]);
    const getti = box('getti');
    expect(getti.corrected).toEqual([]);
    expect(getti.results[0]?.heading).toBeNull();
    expect(getti.results[0]?.pageTitle).toMatch(/^Getting Started/);
  });

  it('lists first a page whose title has a word beginning with the letters typed, over every title of the build', () => {
    const asked = pageIntros.flatMap((intro) =>
      nameWords(intro.pageTitle)
        .filter((word) => /^\p{L}{6,}$/u.test(word))
        .map((word) => word.slice(0, Math.ceil(word.length * 0.7))),
    );
    expect(asked.length).toBeGreaterThan(80);
    const pageFirst = asked.filter((typed) => {
      const [first] = box(typed).results;
      return first?.heading === null && nameWords(first.pageTitle).some((word) => word.startsWith(typed));
    });
    // Measured when written: 81 of 105, 31 before; the rest are mostly headings that are the word typed ("Pitfalls").
    expect(pageFirst.length / asked.length).toBeGreaterThanOrEqual(0.7);
  });
});

describe('the lists of sections per prefix, made with the index', () => {
  const section = (level: 1 | 2 | 3, pageTitle: string, heading?: string): DocSection => ({
    id: `${pageTitle}${heading ?? ''}`,
    pageTitle,
    pageUrl: '/page',
    heading,
    parentHeading: undefined,
    level,
    url: '/page',
    text: '',
    blocks: [],
    breadcrumbs: [],
    keywords: [],
  });

  it('ranks a page title, then a first word, then a short name, and keeps at most 50', () => {
    const prefixes = new NamePrefixes();
    prefixes.add(0, section(2, 'Other', 'Deploying the app'));
    prefixes.add(1, section(2, 'Other', 'Access'));
    prefixes.add(2, section(1, 'Working with access tokens'));
    prefixes.add(3, section(1, 'Access tokens and app-bridge'));
    for (let id = 4; id < 80; id += 1) prefixes.add(id, section(3, 'Other', `Apps ${id}`));
    expect(prefixes.get('a')?.slice(0, 4)).toEqual([3, 2, 1, 0]);
    expect(prefixes.get('br')).toEqual([3]);
    expect(prefixes.get('a')).toHaveLength(50);
    // `a` and `the` are stop words: no prefix of theirs lists a section.
    expect(prefixes.get('th')).toBeUndefined();
  });

  it("ranks a name by its best word for a prefix, not the first word it begins: 'Go' is the whole of `go`", () => {
    const prefixes = new NamePrefixes();
    prefixes.add(0, section(2, 'Other', 'Gotchas'));
    prefixes.add(1, section(2, 'Other', 'Google Go'));
    expect(prefixes.get('go')).toEqual([1, 0]);
  });
});
