import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';

/**
 * The one normaliser of the docs search: the index and every query go through it, so a word is always reduced the
 * same way. MiniSearch indexes what it returns (its own tokenizer would split `app-bridge` and keep `configuring`
 * apart from `configure`).
 */

/** Words too common to tell one section from another; kept short so technical words are never lost. */
const stopWords = new Set(
  (
    'a about after all also am an and any are as at be been before being but by can could did do does doing for from ' +
    'had has have having how i if in into is it its just me my of on once only or other our out over own same ' +
    'should so some such than that the their them then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/** Whether a word (folded) is too common to search by. */
export const isStopWord = (word: string) => stopWords.has(word);

/**
 * Whether a word (folded) is a stop word of four letters or more typed with two neighbouring letters swapped (`waht`,
 * `taht`, `wehn`): the most common slip in a short word, which the docs' corrector leaves alone (it corrects only longer
 * words). Not three letters: there the swaps are abbreviations as often (`aws`, `cna`, `ist`) as slips (`teh`).
 */
export function isSwappedStopWord(word: string): boolean {
  if (word.length < 4 || stopWords.has(word)) return false;
  for (let index = 0; index < word.length - 1; index += 1) {
    if (stopWords.has(`${word.slice(0, index)}${word[index + 1]}${word[index]}${word.slice(index + 2)}`)) return true;
  }
  return false;
}

const numberWords = new Map<string, number>(
  Object.entries({
    zero: 0,
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
    thirteen: 13,
    fourteen: 14,
    fifteen: 15,
    sixteen: 16,
    seventeen: 17,
    eighteen: 18,
    nineteen: 19,
    twenty: 20,
    thirty: 30,
    forty: 40,
    fifty: 50,
    sixty: 60,
    seventy: 70,
    eighty: 80,
    ninety: 90,
  }),
);

/** A duration in one unit, also said in the units it is most often written in. */
const unitEquivalents = new Map<string, Array<[unit: string, factor: number]>>(
  Object.entries({
    minute: [['second', 60]],
    hour: [['minute', 60]],
    day: [['hour', 24]],
    week: [['day', 7]],
    month: [
      ['day', 30],
      ['week', 4],
    ],
    year: [
      ['month', 12],
      ['day', 365],
    ],
  }),
);

/** Letters and digits, optionally joined by `-`, `.`, `_` or `/` (`app-bridge`, `e2-standard-4`, `shopify.app.toml`). */
export const wordPattern = /[\p{L}\p{N}]+(?:[-._/'’][\p{L}\p{N}]+)*/gu;
const joinerPattern = /[-._/'’]/;

/** Longer than any real word (the longest of the common-English list the search reads has 22 letters): kept whole. */
export const longestStemmedWord = 40;

/**
 * Stemming is most of the cost of indexing and the docs repeat their words, so stems are cached; queries add to the
 * cache too, so it is bounded by what it holds (two bytes a character, a key's and value's strings and their entry),
 * never by a count that words of any length could fill.
 */
const stems = new LRUCache<string, string>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (stemmed, word) => 2 * (word.length + stemmed.length) + 96,
});

/** The bytes the stem cache holds, as it counts them. */
export const stemCacheBytes = () => stems.calculatedSize;

export function stem(word: string): string {
  if (word.length > longestStemmedWord) return word;
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  const stemmed = /^\p{L}+$/u.test(word) ? stemmer(word) : word;
  stems.set(word, stemmed);
  return stemmed;
}

/**
 * Lower case, compatibility forms folded (full-width letters, ligatures), accents dropped (`Café` is `cafe`) and URL
 * escapes of pasted links decoded.
 */
export const fold = (text: string) =>
  text
    .replace(/%([0-9a-f]{2})/gi, (encoded, hex: string) => {
      const character = String.fromCharCode(Number.parseInt(hex, 16));
      // Only printable ASCII is decoded (`%2f` in a pasted URL is `/`); anything else stays as typed.
      return /[\x21-\x7e]/.test(character) ? character : encoded;
    })
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    // Thousands separators go: `4,000` is `4000`.
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .toLowerCase();

const wordOf = (match: RegExpMatchArray) => match[0].replace(/['’]s$/, '');
/**
 * In a question, a contraction's tail goes too (`they're`, `we've`, `I'll`, `you'd`, `I'm`): read as parts of a joined
 * word, `re` or `ve` was searched as a subject word (`re` matched every `re-run`). `n't` stays: `couldn't load` is
 * how the docs quote an error message too.
 */
const queryWordOf = (match: RegExpMatchArray) => match[0].replace(/['’](s|re|ve|ll|d|m)$/, '');

/** The words of a text, folded, in order; possessives lose their `'s`. */
export function words(text: string): string[] {
  return [...fold(text).matchAll(wordPattern)].map(wordOf);
}

/** The most of a query that is read: a pasted log's tail adds nothing a reader asked, and costs stemming. */
export const longestQuery = 2000;
export const mostQueryWords = 80;

/** A line of a pasted log that reports what went wrong: what a reader who pastes a log asks about. */
const reportsAFailure =
  /\b(err(or)?s?|fail(s|ed|ure)?|exception|fatal|panic|refused|denied|unable|cannot|can't|timed out|timeout|not found|invalid)\b/i;

/**
 * A query in the order its words are read: a pasted log longer than the words read has its lines that report a
 * failure first (an `ERR ... connection refused` at the end of fifteen lines would fall past them), then the rest in
 * order; anything shorter as written.
 */
function inReadingOrder(query: string): string {
  const lines = query.split('\n');
  if (lines.length < 3 || (query.match(wordPattern)?.length ?? 0) <= mostQueryWords) return query;
  const failures = lines.filter((line) => reportsAFailure.test(line));
  if (failures.length === 0 || failures.length === lines.length) return query;
  return [...failures, ...lines.filter((line) => !reportsAFailure.test(line))].join('\n');
}

/**
 * A query's words as `words` gives them, at most `mostQueryWords` of its first `longestQuery` characters (a long
 * paste's failures first, `inReadingOrder`): capped before any stemming.
 */
export function queryWords(query: string): string[] {
  const found: string[] = [];
  for (const match of fold(inReadingOrder(query).slice(0, longestQuery)).matchAll(wordPattern)) {
    if (found.length >= mostQueryWords) break;
    found.push(queryWordOf(match));
  }
  return found;
}

/** The terms one word stands for: joined words whole (`standup`, `email`), then their stemmed parts. */
export function termsOfWord(word: string): string[] {
  if (!joinerPattern.test(word)) return stopWords.has(word) || /^\p{L}$/u.test(word) ? [] : [stem(word)];
  const parts = word.split(joinerPattern).filter((part) => part.length > 0);
  const joined = parts.join('');
  const terms = [/^\p{L}+$/u.test(joined) ? stem(joined) : joined];
  for (const part of parts) if (!stopWords.has(part)) terms.push(stem(part));
  return terms;
}

/** The search terms of a text, for the index and for queries alike: every word's terms in order. */
export function analyze(text: string): string[] {
  return numbersAsDigits(words(text)).flatMap(termsOfWord);
}

/** Numbers written as words become digits (`two` as `2`, `twenty five` as `25`, `half an hour` as `0.5 hour`). */
export function numbersAsDigits(input: readonly string[]): string[] {
  const output: string[] = [];
  for (let index = 0; index < input.length; index += 1) {
    const word = input[index] ?? '';
    const next = input[index + 1];
    if (word === 'half' && (next === 'a' || next === 'an') && unitOf(input[index + 2])) {
      output.push('0.5');
      index += 1;
    } else if (word === 'a' || word === 'an') {
      output.push(unitOf(next) ? '1' : word);
    } else if (numberWords.has(word)) {
      let value = numberWords.get(word) ?? 0;
      const units = next === undefined ? undefined : numberWords.get(next);
      const compound = value >= 20 && value < 100 && units !== undefined && units >= 1 && units < 10;
      if (compound) {
        value += units;
        index += 1;
      }
      const scale = input[index + 1] === 'hundred' ? 100 : input[index + 1] === 'thousand' ? 1000 : 1;
      if (scale > 1) index += 1;
      output.push(String(value * scale));
    } else if (/^\d+(\.\d+)?k$/.test(word)) {
      output.push(String(Number(word.slice(0, -1)) * 1000));
    } else {
      output.push(word);
    }
  }
  return output;
}

function unitOf(word: string | undefined): string | undefined {
  if (!word) return undefined;
  const singular = word.replace(/s$/, '');
  return unitEquivalents.has(singular) ? singular : undefined;
}

/**
 * A duration said one way, also said the ways the docs may write it: `2 months` is `60 days`, `half an hour` is
 * `30 minutes`. Each equivalent comes as its number and unit words.
 */
export function durationEquivalents(input: readonly string[]): Array<{ said: string[]; equivalent: string[] }> {
  const equivalents: Array<{ said: string[]; equivalent: string[] }> = [];
  input.forEach((word, index) => {
    const amount = Number(word);
    const unit = unitOf(input[index + 1]);
    if (word === '' || !Number.isFinite(amount) || !unit) return;
    const said = [word, input[index + 1] ?? ''];
    for (const [smaller, factor] of unitEquivalents.get(unit) ?? []) {
      const converted = amount * factor;
      if (Number.isInteger(converted)) equivalents.push({ said, equivalent: [String(converted), `${smaller}s`] });
    }
    for (const [larger, entries] of unitEquivalents) {
      for (const [smaller, factor] of entries) {
        if (smaller === unit && amount % factor === 0) {
          equivalents.push({ said, equivalent: [String(amount / factor), `${larger}s`] });
        }
      }
    }
  });
  return equivalents;
}

/**
 * Two neighbouring words written as one (`roll back` as `rollback`, `set up` as `setup`), stemmed: a query may split
 * what the docs write closed. The caller keeps only those the index knows.
 */
export function joinedNeighbours(input: readonly string[]): string[] {
  return input.slice(1).flatMap((word, index) => {
    const previous = input[index] ?? '';
    return /^\p{L}+$/u.test(previous + word) ? [stem(`${previous}${word}`)] : [];
  });
}
