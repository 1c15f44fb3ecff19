import { isStopWord, queryWords, stem, termsOfWord } from './analyze.js';
import type { SearchEngine, SearchHit } from './engine.js';
import { nameWords } from './name-prefixes.js';
import type { QueryTerm } from './query.js';

/** The letters of a word still being typed that the engine's own prefix search leaves out (it starts at three). */
const shortWord = /^[\p{L}\p{N}]{1,2}$/u;

/** The word still being typed, of one or two letters (see `wordBeingTyped`). */
export type WordBeingTyped = {
  word: string;
  /** No other word of the query searches for anything. */
  alone: boolean;
  /** Whether the engine is to match it as the beginning of a title's or heading's word. */
  searched: boolean;
};

/**
 * The last word typed when it has one or two letters and is still being typed (nothing after it). Alone, it lists the
 * sections named by words it begins. After other words, a stop word is most likely just that (`turning a`), and a
 * word the docs know as it stands (`gitlab ci`) is searched as it is; otherwise the engine matches the titles' and
 * headings' words it begins (`firestore tt`).
 */
export function wordBeingTyped(
  engine: SearchEngine,
  typed: string,
  terms: readonly QueryTerm[],
): WordBeingTyped | undefined {
  if (!/[\p{L}\p{N}]$/u.test(typed)) return undefined;
  const word = queryWords(typed).at(-1);
  if (word === undefined || !shortWord.test(word)) return undefined;
  const alone = terms.every((term) => term.expansion || term.term === word);
  // A single letter is never a term of the query (a digit is): it can only be searched as a beginning.
  const searched = /^\p{L}$/u.test(word) || !engine.knows(stem(word));
  if (!alone && (isStopWord(word) || !searched)) return undefined;
  return { word, alone, searched };
}

/**
 * The sections named by a word beginning with `prefix` (`ac`: Acme CLI, Access tokens), best first as made with the
 * index (name-prefixes.ts): what the search box lists while only a letter or two of a word is typed. The words
 * matched are marked in the title; the best sentence is the section's first.
 */
export function sectionsNamedFrom(engine: SearchEngine, prefix: string, limit: number): SearchHit[] {
  const ids = engine.namedFrom(prefix).slice(0, limit);
  return ids.flatMap((id, place) => {
    const section = engine.sections[id];
    if (!section) return [];
    const name = (section.level === 1 ? section.pageTitle : section.heading) ?? '';
    const matchedTerms = new Set(
      nameWords(name)
        .filter((word) => word.startsWith(prefix))
        .flatMap((word) => termsOfWord(word)),
    );
    return [{ ...section, score: ids.length - place, matchedTerms, matchedQueryTerms: new Set([prefix]), coverage: 1 }];
  });
}
