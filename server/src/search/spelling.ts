import SearchableMap from 'minisearch/SearchableMap';
import type { PackedIndex } from './inverted-index.js';

const longestCorrectedWord = 30;
/**
 * Spelling words added to the correction map per turn of the event loop when it is made in the background: at a
 * hundred times the handbook's pages, 4,500 words in one turn held the loop for 75 ms (profiled), 500 for under 10.
 */
const spellingChunk = 500;

export function spellingMapOf(
  index: PackedIndex,
  from = 0,
  to = index.spellingWords.length,
  map = new SearchableMap<number>(),
) {
  for (let at = from; at < to; at += 1) map.set(index.spellingWords[at] ?? '', index.spellingUses[at] ?? 0);
  return map;
}

/** The same, a chunk of words per turn of the event loop, so that requests go on being answered meanwhile. */
export async function spellingMapInTurns(index: PackedIndex): Promise<SearchableMap<number>> {
  const spelling = new SearchableMap<number>();
  for (let start = 0; start < index.spellingWords.length; start += spellingChunk) {
    spellingMapOf(index, start, Math.min(index.spellingWords.length, start + spellingChunk), spelling);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return spelling;
}

/** Whether the docs write a word that begins with `prefix`, as typed (not stemmed), or is it. */
export const beginsWrittenWord =
  (spelling: SearchableMap<number>) =>
  (prefix: string): boolean =>
    !spelling.atPrefix(prefix).keys().next().done;

/** The docs' most used word that begins with `prefix` (`getti`: `getting`). */
export const completer =
  (spelling: SearchableMap<number>) =>
  (prefix: string): string | undefined => {
    let best: { word: string; uses: number } | undefined;
    for (const [word, uses] of spelling.atPrefix(prefix)) if (!best || uses > best.uses) best = { word, uses };
    return best?.word;
  };

/**
 * The docs' word nearest to a misspelt one (`verison`: `version`), as the docs write it: fewest edits, then the most
 * used.
 */
export const corrector =
  (spelling: SearchableMap<number>) =>
  (word: string): string | undefined => {
    // Trying swaps and edits costs the square of a word's length; no real word of the docs is this long.
    if (word.length < 5 || word.length > longestCorrectedWord) return undefined;
    // Two neighbouring letters swapped (`namign`) is one slip, though Levenshtein counts two edits.
    for (let index = 0; index < word.length - 1; index += 1) {
      const swapped = `${word.slice(0, index)}${word[index + 1]}${word[index]}${word.slice(index + 2)}`;
      if (spelling.has(swapped)) return swapped;
    }
    let best: { word: string; distance: number; uses: number } | undefined;
    for (const [candidate, [uses, distance]] of spelling.fuzzyGet(word, word.length >= 7 ? 2 : 1)) {
      if (!best || distance < best.distance || (distance === best.distance && uses > best.uses)) {
        best = { word: candidate, distance, uses };
      }
    }
    return best?.word;
  };
