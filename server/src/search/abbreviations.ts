import { isStopWord, stem } from './analyze.js';
import type { DocSection } from './doc-page.js';

/**
 * Abbreviations the handbook spells out itself, learned from its sections: a reader who types `MR` finds the sections
 * that write "merge request", and the other way round. No dictionary of abbreviations fits: the team's own (`MR`,
 * `QC`, `IAP`) are what readers type, and which words one stands for is a fact of this handbook. So it is learned
 * here from the text: an abbreviation written in capitals, and the words whose initials spell it written in the same
 * sections, in enough of them and far more often than any other words with those initials.
 */
export type Abbreviations = {
  /** The terms an abbreviation's term (`mr`) stands for (`merg`, `request`), if the handbook spells it out. */
  spelledOut(term: string): readonly string[] | undefined;
  /** The abbreviation's term of the terms of words written in a row (`merg request`), if the handbook has one. */
  abbreviationOf(terms: readonly string[]): string | undefined;
};

export const noAbbreviations: Abbreviations = { spelledOut: () => undefined, abbreviationOf: () => undefined };

/**
 * Written in capitals, two to five letters, maybe a plural `s` (`MRs`). ASCII, as the words below: the handbook's
 * abbreviations are, and a Unicode pattern took most of the time spent here.
 */
const abbreviationPattern = /\b([A-Z]{2,5})s?\b/g;
/** Sections that write both, at least, and how much more often than the next words with the same initials. */
const leastSections = 3;
const leadOverNext = 2;

/** Collects, section by section, which words in a row spell the initials of an abbreviation the section writes. */
export class AbbreviationLearner {
  /** Per abbreviation (folded), the sections writing each run of words (their terms, joined by a space) spelling it. */
  private readonly together = new Map<string, Map<string, number>>();

  add(section: DocSection): void {
    const written = new Set<string>();
    for (const match of section.text.matchAll(abbreviationPattern)) written.add((match[1] ?? '').toLowerCase());
    if (written.size === 0) return;
    const lengths = [...new Set([...written].map((abbreviation) => abbreviation.length))];
    const sectionWords = (section.text.match(/[A-Za-z]+/g) ?? []).map((word) => word.toLowerCase());
    // A word that can start a run: two letters or more, not a stop word; its initial, or '' when it cannot.
    const initials = sectionWords.map((word) => (word.length < 2 || isStopWord(word) ? '' : (word[0] ?? '')));
    const seen = new Set<string>();
    for (let at = 0; at < sectionWords.length; at += 1) {
      if (initials[at] === '') continue;
      for (const length of lengths) {
        let spelt = '';
        for (let next = at; next < at + length && initials[next]; next += 1) spelt += initials[next];
        if (spelt.length < length || !written.has(spelt)) continue;
        const run = sectionWords.slice(at, at + length);
        // `QC checkpoints` is the abbreviation written beside a word, not spelled out.
        if (run.includes(spelt)) continue;
        const terms = run.map(stem).join(' ');
        const key = `${spelt} ${terms}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const runs = this.together.get(spelt) ?? new Map<string, number>();
        runs.set(terms, (runs.get(terms) ?? 0) + 1);
        this.together.set(spelt, runs);
      }
    }
  }

  learned(): Abbreviations {
    const spelled = new Map<string, string[]>();
    const abbreviated = new Map<string, string>();
    for (const [abbreviation, runs] of this.together) {
      const [first, second] = [...runs].sort((one, other) => other[1] - one[1]);
      if (!first || first[1] < leastSections || (second && first[1] < leadOverNext * second[1])) continue;
      const term = stem(abbreviation);
      spelled.set(term, first[0].split(' '));
      abbreviated.set(first[0], term);
    }
    return {
      spelledOut: (term) => spelled.get(term),
      abbreviationOf: (terms) => abbreviated.get(terms.join(' ')),
    };
  }
}
