import { AbbreviationLearner, type Abbreviations, noAbbreviations } from './abbreviations.js';
import { numbersAsDigits, termsOfWord, words } from './analyze.js';
import type { DocSection } from './doc-page.js';
import { NamePrefixes } from './name-prefixes.js';
import { SectionsByKey } from './sections-by-key.js';
import { pageKey, parseDocUrl } from './urls.js';

/** What the search looks sections up by, made once per build. */
export type SectionLookups = {
  /** By `sectionKey` of their URL. */
  sectionsByUrl: SectionsByKey;
  /** Each section's page, as `pageKey` gives it. */
  pageKeys: string[];
  /** Each section's page as a number, for per-page sums. */
  pageOf: Int32Array;
  pageCount: number;
  /** The sections whose page title (intros) or heading a query names word for word, by `searchNameOf` the name. */
  namedBy: Map<string, { titles: Set<number>; headings: Set<number> }>;
  /** The sections whose page title (intros) or heading has a word beginning with one or two letters, best first. */
  namePrefixes: NamePrefixes;
  /** The abbreviations the handbook spells out (`MR`, "merge request"), known once every section is looked at. */
  abbreviations: Abbreviations;
};

/**
 * Sections looked at per turn of the event loop when the lookups are made in the background: a thousand took 20 to
 * 30 ms a turn at a hundred times the handbook's pages (each link parsed), with the collector's share.
 */
const chunk = 250;
/** The most sections abbreviations are learned from (see `lookupSteps`). */
const abbreviationSample = 4000;

/**
 * The words a title or heading is known by, in no order: what a query must hold, and only that, to name it. A joined
 * word counts by its parts, as a query's own terms do.
 */
export function searchNameOf(text: string): string {
  const terms = numbersAsDigits(words(text)).flatMap((word) => {
    const [whole, ...parts] = termsOfWord(word);
    return parts.length ? parts : whole === undefined ? [] : [whole];
  });
  return [...new Set(terms)].sort().join(' ');
}

/** One key per section whatever the link's form (see `pageKey`). */
export const sectionKey = (url: string) => {
  const { path, anchor } = parseDocUrl(url);
  return `${pageKey(path)}#${anchor ?? ''}`;
};

/** An anchor that a URL keeps as written and that decoding leaves alone: its key is the page's key and itself. */
const plainAnchor = /^[\w.~-]*$/;
/** A root-relative path with nothing a URL drops or reads as a slash (tabs, line breaks, backslashes). */
const ownPage = /^\/(?!\/)[^\t\n\r\\]*$/;

/**
 * `sectionKey` with the page part parsed once per page: a build's sections share their page's link, and parsing every
 * section's link was most of the lookups' time and garbage on a large handbook. Other anchors
 * take the whole way.
 */
export function sectionKeysByPage(): (url: string) => string {
  const pageParts = new Map<string, string>();
  return (url) => {
    const hashAt = url.indexOf('#');
    const page = url.slice(0, hashAt);
    const anchor = url.slice(hashAt + 1);
    // The site's own sections only: a link without an anchor is parsed trimmed, and a link of another form may not
    // parse, and then keeps its anchor in its path.
    if (hashAt < 0 || !plainAnchor.test(anchor) || !ownPage.test(page)) return sectionKey(url);
    let pagePart = pageParts.get(page);
    if (pagePart === undefined) {
      pagePart = sectionKey(`${page}#`);
      pageParts.set(page, pagePart);
    }
    return pagePart + anchor;
  };
}

/** Makes the lookups a chunk of sections at a time, yielding between chunks. */
function* lookupSteps(sections: readonly DocSection[], into: SectionLookups): Generator<void> {
  const keyOf = sectionKeysByPage();
  /** A page's key once per page (its sections share its link), not once per section. */
  const pageKeysByUrl = new Map<string, string>();
  const pageIds = new Map<string, number>();
  const abbreviations = new AbbreviationLearner();
  // Abbreviations worth knowing are written often: sections spread evenly over the handbook, at most so many, find
  // them, and a handbook a hundred times larger does not take a hundred times as long to learn them.
  const abbreviationStride = Math.ceil(sections.length / abbreviationSample);
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = searchNameOf(text);
      names.set(text, name);
    }
    return name;
  };
  const addName = (text: string, id: number, kind: 'titles' | 'headings') => {
    const name = nameOf(text);
    if (!name) return;
    const entry = into.namedBy.get(name) ?? { titles: new Set(), headings: new Set() };
    entry[kind].add(id);
    into.namedBy.set(name, entry);
  };
  for (let start = 0; start < sections.length; start += chunk) {
    const end = Math.min(sections.length, start + chunk);
    for (let id = start; id < end; id += 1) {
      const section = sections[id];
      if (!section) continue;
      into.sectionsByUrl.add(id, keyOf(section.url));
      let key = pageKeysByUrl.get(section.pageUrl);
      if (key === undefined) {
        key = pageKey(section.pageUrl);
        pageKeysByUrl.set(section.pageUrl, key);
      }
      into.pageKeys[id] = key;
      let page = pageIds.get(key);
      if (page === undefined) {
        page = pageIds.size;
        pageIds.set(key, page);
      }
      into.pageOf[id] = page;
      if (section.level === 1) addName(section.pageTitle, id, 'titles');
      if (section.heading) addName(section.heading, id, 'headings');
      into.namePrefixes.add(id, section);
      if (id % abbreviationStride === 0) abbreviations.add(section);
    }
    into.pageCount = pageIds.size;
    yield;
  }
  into.abbreviations = abbreviations.learned();
}

const emptyLookups = (sections: readonly DocSection[]): SectionLookups => ({
  sectionsByUrl: new SectionsByKey(sections, sectionKey),
  pageKeys: new Array<string>(sections.length).fill(''),
  pageOf: new Int32Array(sections.length),
  pageCount: 0,
  namedBy: new Map(),
  namePrefixes: new NamePrefixes(),
  abbreviations: noAbbreviations,
});

/** The lookups of a build's sections, made at once (start-up, tests). */
export function sectionLookups(sections: readonly DocSection[]): SectionLookups {
  const lookups = emptyLookups(sections);
  for (const _ of lookupSteps(sections, lookups));
  return lookups;
}

/** The same, a thousand sections per turn of the event loop, so that requests go on being answered meanwhile. */
export async function sectionLookupsInTurns(sections: readonly DocSection[]): Promise<SectionLookups> {
  const lookups = emptyLookups(sections);
  for (const _ of lookupSteps(sections, lookups)) await new Promise((resolve) => setImmediate(resolve));
  return lookups;
}
