import { isStopWord, words } from './analyze.js';
import type { DocSection } from './doc-page.js';

/**
 * Sections kept per prefix: as many as a search may list (the contract's `maxSearchHits`), so that a letter or two
 * typed costs a lookup, whatever the size of the handbook.
 */
const keptPerPrefix = 50;
/** Prefixes are the first one and two letters of a word: what the engine's own prefix search leaves out. */
const longestPrefix = 2;

/** A section's name: its page's title for a page's intro, else its heading. */
const nameOf = (section: DocSection) => (section.level === 1 ? section.pageTitle : section.heading);

/**
 * The words of a name a prefix may begin, in order: joined words by their parts (`app-bridge` is `app` and `bridge`),
 * and no stop word (`a` is typed for `access`, not for `a`).
 */
export const nameWords = (name: string): string[] =>
  words(name)
    .flatMap((word) => word.split(/[-._/'’]/))
    .filter((word) => word !== '' && !isStopWord(word));

/**
 * How well a section's name answers a prefix, lower being better: a page's title, then an h2's heading, then an h3's;
 * a word that is the prefix whole before one it begins; a first word before a later one; a short name before a long
 * one. Document order breaks ties (sections are added in it).
 */
const rankOf = (section: DocSection, word: string, prefix: string, position: number, length: number) =>
  (section.level - 1) * 1e7 + (word === prefix ? 0 : 1e6) + Math.min(position, 999) * 1e3 + Math.min(length, 999);

/**
 * The best sections per prefix of one or two letters, made while the index is: for a search box that lists pages and
 * sections by the names they begin, as the reader types the first letters of one (DocSearch does the same).
 */
export class NamePrefixes {
  private readonly kept = new Map<string, { ids: number[]; ranks: number[] }>();

  add(id: number, section: DocSection): void {
    const name = nameOf(section);
    if (!name) return;
    const named = nameWords(name);
    // A section is kept once per prefix, at its best rank over the name's words: in "Google Go", `go` is ranked by
    // `go` (the whole prefix) rather than by `google`, the first word it begins.
    const best = new Map<string, number>();
    named.forEach((word, position) => {
      for (let length = 1; length <= Math.min(longestPrefix, word.length); length += 1) {
        const prefix = word.slice(0, length);
        const rank = rankOf(section, word, prefix, position, named.length);
        if (rank < (best.get(prefix) ?? Number.POSITIVE_INFINITY)) best.set(prefix, rank);
      }
    });
    for (const [prefix, rank] of best) this.keep(prefix, id, rank);
  }

  /** Inserts in rank order, after equal ranks (document order); a full list drops its worst. */
  private keep(prefix: string, id: number, rank: number): void {
    let list = this.kept.get(prefix);
    if (!list) {
      list = { ids: [], ranks: [] };
      this.kept.set(prefix, list);
    }
    const { ids, ranks } = list;
    if (ids.length >= keptPerPrefix && rank >= (ranks[ranks.length - 1] ?? 0)) return;
    let at = ranks.length;
    while (at > 0 && (ranks[at - 1] ?? 0) > rank) at -= 1;
    ids.splice(at, 0, id);
    ranks.splice(at, 0, rank);
    if (ids.length > keptPerPrefix) {
      ids.pop();
      ranks.pop();
    }
  }

  /** The sections whose name has a word beginning with `prefix` (one or two letters, folded), best first. */
  get(prefix: string): readonly number[] | undefined {
    return this.kept.get(prefix)?.ids;
  }
}
