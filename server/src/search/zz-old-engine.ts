import MiniSearch, { type SearchResult } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { analyze, stem, words } from './analyze.js';
import type { DocSection } from './doc-page.js';
import { coverageShare, type QueryTerm, queryTerms } from './query.js';
import { isRootRelative, pageKey, parseDocUrl } from './urls.js';

/** A section the query found, with what matched: the evidence for coverage and for choosing what to quote. */
export type SearchHit = DocSection & {
  score: number;
  /** Terms of the section that matched (a typo's correct spelling, a prefix's whole word). */
  matchedTerms: ReadonlySet<string>;
  /** The query's terms that found something in the section (a typo as typed). */
  matchedQueryTerms: ReadonlySet<string>;
  /** Share of the question's meaning (its terms weighted by rarity) that the section holds, 0 to 1. */
  coverage: number;
};

export type SearchOptions = {
  limit?: number;
  /** The reader's page: its sections rank a little higher. */
  currentPage?: string | undefined;
  /** Only pages under this path (`/Workshops/`). */
  pathPrefix?: string | undefined;
  /** The last word may be unfinished, as in a search box. */
  asYouType?: boolean;
};

export type SearchEngine = {
  sections: readonly DocSection[];
  /** Sections for a query, or for its terms when the caller has them already. */
  search(query: string | readonly QueryTerm[], options?: SearchOptions): SearchHit[];
  /** How much a term tells sections apart (inverse document frequency); unknown terms weigh the most. */
  termWeight(term: string): number;
  /** A query term's share in the question's meaning. */
  meaningWeight(term: QueryTerm): number;
  /** The query's terms, as the index reads them. */
  queryTerms(query: string): QueryTerm[];
  /** The section a link leads to (the page's intro for a link without an anchor). */
  sectionAt(url: string): DocSection | undefined;
};

/**
 * Field boosts, chosen on the tuning questions: code counts for less, since a long listing matches many words of a
 * question by chance.
 */
const boost = { title: 1, headings: 1, keywords: 1, body: 1, code: 0.4 };
const fields = Object.keys(boost);
/** A rewording of the question counts for less than the words the reader typed. */
const expansionBoost = 0.6;
const currentPageBoost = 1.5;
/** An everyday word ranks for less than a subject word. */
const genericBoost = 0.3;
/** An everyday word in a question (`nobody`, `morning`) carries this share of a subject word's weight. */
const genericShare = 0.25;
/** A section gains a tenth of its page's total score: a page that treats the question lifts its sections. */
const pageWeight = 0.1;
/** Bounds on what one query may cost, whatever is pasted into it. */
const longestQuery = 2000;
const mostTerms = 80;
const longestCorrectedWord = 30;

const headingPath = (section: DocSection) =>
  [section.parentHeading, section.heading].filter((part): part is string => part !== undefined).join(' ');

/** The text of each field of a section, already normalised (MiniSearch only splits it again on spaces). */
const fieldTexts = (section: DocSection): Record<string, string[]> => ({
  title: analyze(section.pageTitle),
  headings: analyze(headingPath(section)),
  // A page's keywords name its subject as a whole: they go with its intro, and lift its sections through the page.
  keywords: section.level === 1 ? analyze(section.keywords.join(' ')) : [],
  body: analyze(section.text.replace(section.code, ' ')),
  code: analyze(section.code),
});

type IndexedDocument = Record<string, string | number>;

/** What indexing learns of the docs besides the MiniSearch index itself. */
type Vocabulary = {
  documentFrequency: Map<string, number>;
  /** Terms of titles, headings and keywords: the subjects the docs name. */
  subjects: Set<string>;
  /** Every word the docs write, for correcting a misspelt query word to one of them. */
  spelling: SearchableMap<number>;
};

/** One section as MiniSearch indexes it; its words and terms are counted into the vocabulary. */
function indexedDocument(section: DocSection, id: number, vocabulary: Vocabulary): IndexedDocument {
  const texts = fieldTexts(section);
  for (const word of words(`${section.pageTitle} ${headingPath(section)} ${section.text}`)) {
    if (/^\p{L}{4,}$/u.test(word)) vocabulary.spelling.set(word, (vocabulary.spelling.get(word) ?? 0) + 1);
  }
  for (const field of ['title', 'headings', 'keywords'])
    for (const term of texts[field] ?? []) vocabulary.subjects.add(term);
  for (const term of new Set(Object.values(texts).flat())) {
    vocabulary.documentFrequency.set(term, (vocabulary.documentFrequency.get(term) ?? 0) + 1);
  }
  return { id, ...Object.fromEntries(Object.entries(texts).map(([field, terms]) => [field, terms.join(' ')])) };
}

const newIndex = () =>
  new MiniSearch<IndexedDocument>({ fields, tokenize: (text) => text.split(' '), processTerm: (term) => term || null });
const newVocabulary = (): Vocabulary => ({
  documentFrequency: new Map(),
  subjects: new Set(),
  spelling: new SearchableMap(),
});

/** The docs search over the sections of one build, built at once (start-up, tests). */
export function createSearchEngine(sections: readonly DocSection[]): SearchEngine {
  const vocabulary = newVocabulary();
  const index = newIndex();
  index.addAll(sections.map((section, id) => indexedDocument(section, id, vocabulary)));
  return searchEngineOver(sections, index, vocabulary);
}

/** The same, built a few hundred sections at a time so that requests go on being answered meanwhile. */
export async function buildSearchEngineInBackground(sections: readonly DocSection[]): Promise<SearchEngine> {
  const vocabulary = newVocabulary();
  const index = newIndex();
  const chunk = 200;
  for (let start = 0; start < sections.length; start += chunk) {
    index.addAll(
      sections
        .slice(start, start + chunk)
        .map((section, offset) => indexedDocument(section, start + offset, vocabulary)),
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
  return searchEngineOver(sections, index, vocabulary);
}

/** MiniSearch (BM25+) over our normaliser, with coverage evidence and the site's links. */
function searchEngineOver(
  sections: readonly DocSection[],
  index: MiniSearch<IndexedDocument>,
  { documentFrequency, subjects, spelling }: Vocabulary,
): SearchEngine {
  const sectionCount = Math.max(1, sections.length);
  const termWeight = (term: string) => {
    const frequency = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (sectionCount - frequency + 0.5) / (frequency + 0.5));
  };
  const knows = (term: string) => documentFrequency.has(term);
  /** The docs' word nearest to a misspelt one (`verison`: `version`): fewest edits, then the most used. */
  const correct = (word: string): string | undefined => {
    // Trying swaps and edits costs the square of a word's length; no real word of the docs is this long.
    if (word.length < 5 || word.length > longestCorrectedWord) return undefined;
    // Two neighbouring letters swapped (`namign`) is one slip, though Levenshtein counts two edits.
    for (let index = 0; index < word.length - 1; index += 1) {
      const swapped = `${word.slice(0, index)}${word[index + 1]}${word[index]}${word.slice(index + 2)}`;
      if (spelling.has(swapped)) return stem(swapped);
    }
    let best: { word: string; distance: number; uses: number } | undefined;
    for (const [candidate, [uses, distance]] of spelling.fuzzyGet(word, word.length >= 7 ? 2 : 1)) {
      if (!best || distance < best.distance || (distance === best.distance && uses > best.uses)) {
        best = { word: candidate, distance, uses };
      }
    }
    return best ? stem(best.word) : undefined;
  };

  const sectionKey = (url: string) => {
    const { path, anchor } = parseDocUrl(url);
    return `${pageKey(path)}#${anchor ?? ''}`;
  };
  const sectionsByUrl = new Map(sections.map((section) => [sectionKey(section.url), section]));
  const pageKeys = sections.map((section) => pageKey(section.pageUrl));

  /** A query's terms; a pasted log's tail adds nothing a reader asked, so only the first part counts. */
  const queryTermsOf = (query: string) =>
    queryTerms(query.slice(0, longestQuery), knows, correct, (term) => subjects.has(term)).slice(0, mostTerms);

  /** A term's share in the question's meaning: its rarity in the docs, less for an everyday word. */
  const meaningWeight = (term: QueryTerm) => termWeight(term.term) * (term.generic ? genericShare : 1);

  function search(query: string | readonly QueryTerm[], options: SearchOptions = {}): SearchHit[] {
    const terms = typeof query === 'string' ? queryTermsOf(query) : query;
    if (terms.length === 0) return [];
    const boosts = new Map(
      terms.map((term) => [term.term, term.expansion ? expansionBoost : term.generic ? genericBoost : 1]),
    );
    const lastTerm = terms.filter((term) => !term.expansion).at(-1)?.term;
    const currentPage = options.currentPage ? pageKey(parseDocUrl(options.currentPage).path) : undefined;
    const prefixPath = options.pathPrefix ? pageKey(options.pathPrefix) : undefined;
    const results: SearchResult[] = index.search(terms.map((term) => term.term).join(' '), {
      boost,
      // A known word needs no prefix match (stemming already joins its forms); an unknown one may be cut short.
      // Misspellings were corrected against the docs' own words already, so MiniSearch's fuzzy search stays off.
      prefix: (term) => term.length >= 3 && ((options.asYouType === true && term === lastTerm) || !knows(term)),
      weights: { fuzzy: 0.6, prefix: 0.5 },
      boostTerm: (term) => boosts.get(term) ?? 1,
      ...(currentPage ? { boostDocument: (id: number) => (pageKeys[id] === currentPage ? currentPageBoost : 1) } : {}),
      ...(prefixPath
        ? {
            filter: (result: SearchResult) => {
              const page = pageKeys[result.id as number] ?? '';
              return page === prefixPath || page.startsWith(`${prefixPath}/`);
            },
          }
        : {}),
    });
    // MiniSearch multiplies a score by how many query terms matched; an everyday word or a rewording should count for
    // its boost there as well, or a chatty question ranks the sections that share its filler.
    const rescored = results.map((result) => {
      const matched = result.queryTerms.reduce((sum, term) => sum + (boosts.get(term) ?? 1), 0);
      return { result, score: (result.score / Math.max(1, result.queryTerms.length)) * matched };
    });
    const pageScore = new Map<string, number>();
    for (const { result, score } of rescored) {
      const page = pageKeys[result.id as number] ?? '';
      pageScore.set(page, (pageScore.get(page) ?? 0) + score);
    }
    const ranked = rescored
      .map(({ result, score }) => ({
        result,
        score: score + pageWeight * (pageScore.get(pageKeys[result.id as number] ?? '') ?? 0),
      }))
      .sort((first, second) => second.score - first.score);
    return ranked.slice(0, options.limit ?? 8).flatMap(({ result, score }) => {
      const section = sections[result.id as number];
      if (!section) return [];
      return [
        {
          ...section,
          score,
          matchedTerms: new Set(result.terms),
          matchedQueryTerms: new Set(result.queryTerms),
          coverage: coverageShare(terms, new Set(result.queryTerms), meaningWeight),
        },
      ];
    });
  }

  return {
    sections,
    search,
    termWeight,
    meaningWeight,
    queryTerms: queryTermsOf,
    sectionAt(url) {
      return isRootRelative(url) ? sectionsByUrl.get(sectionKey(url)) : undefined;
    },
  };
}
