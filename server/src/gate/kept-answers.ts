/** A whole answer, ready to write: status, header list and body. */
export type PreparedAnswer = { status: number; headers: readonly string[]; body: Buffer };

/**
 * Answers kept by a key for as long as everything they were made from (`sources`: the policy, the build's headers)
 * is the same objects; a change of any of them drops them all. At most `maxEntries`: when full it starts afresh, so
 * a stream of distinct keys costs no more than it would without the cache.
 */
export function keptAnswers(maxEntries: number) {
  const answers = new Map<string, PreparedAnswer>();
  let madeFrom: readonly object[] = [];
  return (key: string, sources: readonly object[], prepare: () => PreparedAnswer): PreparedAnswer => {
    if (sources.length !== madeFrom.length || sources.some((source, index) => source !== madeFrom[index])) {
      answers.clear();
      madeFrom = sources;
    }
    let answer = answers.get(key);
    if (!answer) {
      answer = prepare();
      if (answers.size >= maxEntries) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
