import type { PackedIndex } from './inverted-index.js';

/** One term of a query as the index reads it. */
export type TermQuery = {
  term: string;
  prefix: boolean;
  boost: number;
  /** Only these fields count (all when absent). */
  fields?: readonly number[] | undefined;
  /** The longer words a prefix stands for, when chosen already (`namingWords`); else every word it begins. */
  expandTo?: readonly number[] | undefined;
};

/** A query term and the index terms it matches: itself, and with a prefix the longer words it begins. */
export type Expansion = { query: TermQuery; derived: Array<{ id: number; weight: number }> };

/**
 * The documents a query matched, valid until the next query on the same matcher: their ids in the order first matched,
 * and per document id the BM25+ score, how many query terms matched and the sum of those terms' boosts.
 */
export type Matches = {
  documents: Int32Array;
  count: number;
  score: Float64Array;
  quality: Int32Array;
  boostSum: Float64Array;
  expansions: Expansion[];
};

export type MatchOptions = {
  fieldBoosts: readonly number[];
  /** A prefix match counts for this share of an exact one, less the more letters it adds. */
  prefixWeight: number;
  documentBoost?: ((document: number) => number) | undefined;
};

/** BM25+ as MiniSearch computes it. */
const bm25 = { k: 1.2, b: 0.7, d: 0.5 };
/**
 * A prefix of a few letters begins hundreds of words; the most used ones are what a reader is typing, and each further
 * one would cost its postings on every keystroke.
 */
const mostExpansions = 50;
/** Prefixes whose naming words are kept (see `namingWords`): one and two letters are a few thousand at most. */
const mostNamingPrefixes = 4096;

/** Queries over one index, reusing per-document scratch buffers: one query at a time, as the event loop runs them. */
export function indexMatcher(index: PackedIndex) {
  const { documentCount, fieldCount, offsets, documents, frequencies, fieldLengths, averageFieldLengths } = index;
  const termIds = new Map(index.terms.map((term, id) => [term, id]));
  const score = new Float64Array(documentCount);
  const termScore = new Float64Array(documentCount);
  const quality = new Int32Array(documentCount);
  const boostSum = new Float64Array(documentCount);
  /** The query term (1-based) that last touched a document; 0 for none. */
  const touchedBy = new Int32Array(documentCount);
  const matched = new Int32Array(documentCount);
  const termMatched = new Int32Array(documentCount);
  let matchedCount = 0;

  const sorted = index.sortedTermIds;
  /** Where the terms beginning with `prefix` start in the sorted terms. */
  function firstFrom(prefix: string): number {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((index.terms[sorted[middle] ?? 0] ?? '') < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Whether a term begins with `prefix` and is longer. */
  function beginsWord(prefix: string): boolean {
    let at = firstFrom(prefix);
    if (index.terms[sorted[at] ?? 0] === prefix) at += 1;
    return at < sorted.length && (index.terms[sorted[at] ?? 0] ?? '').startsWith(prefix);
  }

  /** Ids of the terms that begin with `prefix` (but are longer), the most used first, at most `mostExpansions`. */
  function longerTermsOf(prefix: string): number[] {
    const found: number[] = [];
    for (let at = firstFrom(prefix); at < sorted.length; at += 1) {
      const id = sorted[at] ?? 0;
      const term = index.terms[id] ?? '';
      if (!term.startsWith(prefix)) break;
      if (term.length > prefix.length) found.push(id);
    }
    if (found.length <= mostExpansions) return found;
    const frequency = index.documentFrequency;
    return found.sort((first, second) => (frequency[second] ?? 0) - (frequency[first] ?? 0)).slice(0, mostExpansions);
  }

  /** In how many sections a term is in one of `fields` (those naming the page or section: its postings there). */
  const usesIn = (id: number, fields: readonly number[]) =>
    fields.reduce(
      (sum, field) => sum + (offsets[id * fieldCount + field + 1] ?? 0) - (offsets[id * fieldCount + field] ?? 0),
      0,
    );
  const namingPrefixes = new Map<string, readonly number[]>();
  /**
   * Ids of the terms of `fields` (titles and headings) that begin with `prefix` (but are longer), the most used there
   * first, at most `mostExpansions`. Remembered per prefix: a letter or two begins a good share of the vocabulary, which
   * is looked through once per build, not per keystroke.
   */
  function namingWords(prefix: string, fields: readonly number[]): readonly number[] {
    const key = `${fields.join(',')} ${prefix}`;
    let found = namingPrefixes.get(key);
    if (found) return found;
    const naming: number[] = [];
    for (let at = firstFrom(prefix); at < sorted.length; at += 1) {
      const id = sorted[at] ?? 0;
      const term = index.terms[id] ?? '';
      if (!term.startsWith(prefix)) break;
      if (term.length > prefix.length && usesIn(id, fields) > 0) naming.push(id);
    }
    found = naming.sort((first, second) => usesIn(second, fields) - usesIn(first, fields)).slice(0, mostExpansions);
    // Only a prefix that begins some name's word is remembered: those are few (the docs' own), while letters no word
    // begins cost a lookup alone and, remembered, would let any reader's typing empty the others out.
    if (found.length === 0) return found;
    if (namingPrefixes.size >= mostNamingPrefixes) namingPrefixes.clear();
    namingPrefixes.set(key, found);
    return found;
  }

  function expand(query: TermQuery, prefixWeight: number): Expansion {
    const derived: Expansion['derived'] = [];
    const exact = termIds.get(query.term);
    if (exact !== undefined) derived.push({ id: exact, weight: 1 });
    if (query.prefix) {
      for (const id of query.expandTo ?? longerTermsOf(query.term)) {
        const length = index.terms[id]?.length ?? 0;
        const distance = length - query.term.length;
        derived.push({ id, weight: (prefixWeight * length) / (length + 0.3 * distance) });
      }
    }
    return { query, derived };
  }

  function match(queries: readonly TermQuery[], options: MatchOptions): Matches {
    for (let at = 0; at < matchedCount; at += 1) {
      const document = matched[at] ?? 0;
      score[document] = 0;
      quality[document] = 0;
      boostSum[document] = 0;
      touchedBy[document] = 0;
    }
    matchedCount = 0;
    const expansions = queries.map((query) => expand(query, options.prefixWeight));
    expansions.forEach(({ query, derived }, queryIndex) => {
      const mark = queryIndex + 1;
      let termMatchedCount = 0;
      for (const { id, weight } of derived) {
        for (let field = 0; field < fieldCount; field += 1) {
          if (query.fields && !query.fields.includes(field)) continue;
          const start = offsets[id * fieldCount + field] ?? 0;
          const end = offsets[id * fieldCount + field + 1] ?? 0;
          if (start === end) continue;
          const fieldBoost = options.fieldBoosts[field] ?? 1;
          const averageLength = averageFieldLengths[field] ?? 1;
          const matching = end - start;
          const inverseFrequency = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
          for (let posting = start; posting < end; posting += 1) {
            const document = documents[posting] ?? 0;
            const frequency = frequencies[posting] ?? 0;
            const length = fieldLengths[document * fieldCount + field] ?? 0;
            const raw =
              inverseFrequency *
              (bm25.d +
                (frequency * (bm25.k + 1)) / (frequency + bm25.k * (1 - bm25.b + (bm25.b * length) / averageLength)));
            const documentBoost = options.documentBoost ? options.documentBoost(document) : 1;
            const weighted = weight * query.boost * fieldBoost * documentBoost * raw;
            if (touchedBy[document] === mark) termScore[document] = (termScore[document] ?? 0) + weighted;
            else {
              touchedBy[document] = mark;
              termScore[document] = weighted;
              termMatched[termMatchedCount] = document;
              termMatchedCount += 1;
            }
          }
        }
      }
      for (let at = 0; at < termMatchedCount; at += 1) {
        const document = termMatched[at] ?? 0;
        if ((quality[document] ?? 0) === 0) {
          matched[matchedCount] = document;
          matchedCount += 1;
          score[document] = termScore[document] ?? 0;
        } else score[document] = (score[document] ?? 0) + (termScore[document] ?? 0);
        quality[document] = (quality[document] ?? 0) + 1;
        boostSum[document] = (boostSum[document] ?? 0) + query.boost;
      }
    });
    return { documents: matched, count: matchedCount, score, quality, boostSum, expansions };
  }

  const holds = (id: number, field: number, document: number) => {
    let low = offsets[id * fieldCount + field] ?? 0;
    let high = offsets[id * fieldCount + field + 1] ?? 0;
    while (low < high) {
      const middle = (low + high) >> 1;
      const at = documents[middle] ?? 0;
      if (at === document) return true;
      if (at < document) low = middle + 1;
      else high = middle;
    }
    return false;
  };

  /** The index terms and the query terms that matched one document: only asked for the few best. */
  function matchedTermsOf(document: number, expansions: readonly Expansion[]) {
    const terms = new Set<string>();
    const queryTerms = new Set<string>();
    for (const { query, derived } of expansions) {
      for (const { id } of derived) {
        for (let field = 0; field < fieldCount; field += 1) {
          if (query.fields && !query.fields.includes(field)) continue;
          if (holds(id, field, document)) {
            terms.add(index.terms[id] ?? '');
            queryTerms.add(query.term);
            break;
          }
        }
      }
    }
    return { terms, queryTerms };
  }

  return {
    knows: (term: string) => termIds.has(term),
    documentFrequency: (term: string) => {
      const id = termIds.get(term);
      return id === undefined ? 0 : (index.documentFrequency[id] ?? 0);
    },
    isSubject: (term: string) => {
      const id = termIds.get(term);
      return id !== undefined && index.subject[id] === 1;
    },
    beginsWord,
    namingWords,
    match,
    matchedTermsOf,
  };
}
