import { stemmer } from 'stemmer';

/** Words too common to tell one section from another; kept short so technical words are never lost. */
const stopWords = new Set(
  (
    'a about after all also am an and any are as at be been before being but by can could did do does doing for from ' +
    'had has have having how i if in into is it its just me my no not of on once only or other our out over own same ' +
    'should so some such than that the their them then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/** Letters and digits, optionally joined by `-`, `.` or `_` (`app-bridge`, `e2-standard-4`, `shopify.app.toml`). */
const wordPattern = /[\p{L}\p{N}]+(?:[-._][\p{L}\p{N}]+)*/gu;
const joinerPattern = /[-._]/;

/** Stemming is most of the cost of indexing and the docs repeat their words; the cap bounds what queries add. */
const stems = new Map<string, string>();
const maxCachedStems = 50_000;

function stem(word: string): string {
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  const stemmed = /^\p{L}+$/u.test(word) ? stemmer(word) : word;
  if (stems.size >= maxCachedStems) stems.clear();
  stems.set(word, stemmed);
  return stemmed;
}

/**
 * The search terms of a text: lower-cased, stop words dropped, Porter-stemmed. A joined word is kept whole and also
 * split into its parts, so `app-bridge` matches both `app-bridge` and `app bridge`.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(wordPattern)) {
    const word = match[0];
    if (!joinerPattern.test(word)) {
      if (!stopWords.has(word)) terms.push(stem(word));
      continue;
    }
    terms.push(word);
    for (const part of word.split(joinerPattern)) {
      if (!stopWords.has(part)) terms.push(stem(part));
    }
  }
  return terms;
}

/**
 * Two neighbouring words written as one (`roll back` as `rollback`, `set up` as `setup`), stemmed: a query may split
 * what the docs write closed, or the other way round. The index keeps only those it knows.
 */
export function joinedNeighbours(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  return words.slice(1).map((word, index) => stem(`${words[index]}${word}`));
}
