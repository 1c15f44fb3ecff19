import { LRUCache } from 'lru-cache';
import type { PreparedAnswer } from './lane-output.js';

/**
 * Answers kept by a key for as long as everything they were made from (`sources`: the policy, the build's headers)
 * is the same objects; a change of any of them drops them all. At most `maxEntries` (a few MB of sign-in pages): the
 * least recently used goes first, so a stream of distinct keys cannot grow it nor push out the pages most asked for.
 */
export function keptAnswers(maxEntries: number) {
  const answers = new LRUCache<string, PreparedAnswer>({ max: maxEntries });
  let madeFrom: readonly object[] = [];
  return (key: string, sources: readonly object[], prepare: () => PreparedAnswer): PreparedAnswer => {
    if (sources.length !== madeFrom.length || sources.some((source, index) => source !== madeFrom[index])) {
      answers.clear();
      madeFrom = sources;
    }
    let answer = answers.get(key);
    if (!answer) {
      answer = prepare();
      answers.set(key, answer);
    }
    return answer;
  };
}
