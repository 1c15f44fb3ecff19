import type SearchableMap from 'minisearch/SearchableMap';
import { queryWords, stem, termsOfWord } from './analyze.js';
import type { DocSection } from './doc-page.js';
import { indexMatcher, type TermQuery } from './index-query.js';
import { indexSectionsInWorker } from './index-worker-client.js';
import { type IndexWithMeaning, latentRanker } from './latent-ranking.js';
import { coverageShare, type QueryTerm, queryTerms } from './query.js';
import { type SectionLookups, sectionKey, sectionLookups, sectionLookupsInTurns } from './section-lookups.js';
import { fieldBoosts, indexSections, nameFields } from './section-terms.js';
import { beginsWrittenWord, completer, corrector, spellingMapInTurns, spellingMapOf } from './spelling.js';
import { isRootRelative, pageKey, parseDocUrl } from './urls.js';

export { searchNameOf } from './section-lookups.js';

/** A section the query found, with what matched: the evidence for coverage and for choosing what to quote. */
export type SearchHit = DocSection & {
  score: number;
  /** Terms of the section that matched (a typo's correct spelling, a prefix's whole word). */
  matchedTerms: ReadonlySet<string>;
  /** The query's terms that found something in the section (a typo as typed). */
  matchedQueryTerms: ReadonlySet<string>;
  /** Share of the question's meaning (its terms weighted by rarity) that the section holds, 0 to 1. */
  coverage: number;
  /** Cosine of the question and the section in the handbook's latent space, when it has one (latent-ranking.ts). */
  nearness?: number | undefined;
};

export type SearchOptions = {
  limit?: number;
  /** The reader's page: its sections rank a little higher. */
  currentPage?: string | undefined;
  /** Only pages under this path (`/Workshops/`). */
  pathPrefix?: string | undefined;
  /** The last word may be unfinished, as in a search box (a query as text; terms carry `unfinished`). */
  asYouType?: boolean;
  /**
   * A word of one or two letters still being typed (`ac`, `t`): it matches the words of titles and headings that
   * begin with it, which no whole word of the query would.
   */
  typing?: string | undefined;
};

export type SearchEngine = {
  sections: readonly DocSection[];
  /** Sections for a query, or for its terms when the caller has them already. */
  search(query: string | readonly QueryTerm[], options?: SearchOptions): SearchHit[];
  /** How much a term tells sections apart (inverse document frequency); unknown terms weigh the most. */
  termWeight(term: string): number;
  /** A query term's share in the question's meaning. */
  meaningWeight(term: QueryTerm): number;
  /**
   * The query's terms, as the index reads them. As you type, a last word that begins one of the docs' words (`firest`)
   * is not corrected to another (`first`): the reader has not finished it.
   */
  queryTerms(query: string, options?: { asYouType?: boolean }): QueryTerm[];
  /**
   * The sections whose page title (for a page's intro) or heading has a word beginning with one or two letters, best
   * first (see name-prefixes.ts): made when the index is, so a keystroke only looks them up.
   */
  namedFrom(prefix: string): readonly number[];
  /** Whether any section holds the term. */
  knows(term: string): boolean;
  /** The section a link leads to (the page's intro for a link without an anchor). */
  sectionAt(url: string): DocSection | undefined;
};

/** A rewording of the question counts for less than the words the reader typed. */
const expansionBoost = 0.6;
const currentPageBoost = 1.5;
/** An everyday word ranks for less than a subject word. */
const genericBoost = 0.3;
/**
 * An everyday word in a question (`nobody`, `morning`) carries this share of a subject word's weight; a dictionary word
 * the handbook never writes (`vacation`) carries all of it. Both chosen on the tuning questions (bench/questions).
 */
const genericShare = 0.25;
/** A section gains a tenth of its page's total score: a page that treats the question lifts its sections. */
const pageWeight = 0.1;
/** A prefix match counts for half an exact one (less the more letters it adds). */
const prefixWeight = 0.5;
/** The words of titles and headings a single letter typed after other words stands for (see `search`). */
const letterExpansions = 10;
/** Bounds on what one query may cost, whatever is pasted into it. */
const longestQuery = 2000;
const mostTerms = 80;
const fieldBoostList = Object.values(fieldBoosts);

/** The docs search over the sections of one build, built at once (start-up, tests). */
export function createSearchEngine(sections: readonly DocSection[]): SearchEngine {
  const index = indexSections(sections);
  return searchEngineOver(sections, index, spellingMapOf(index), sectionLookups(sections));
}

/**
 * The search over sections whose index was built elsewhere (a worker thread): only the spelling map is made here, a
 * few thousand words per turn of the event loop, so requests go on being answered meanwhile.
 */
export async function searchEngineFromIndex(
  sections: readonly DocSection[],
  index: IndexWithMeaning,
): Promise<SearchEngine> {
  const spelling = await spellingMapInTurns(index);
  return searchEngineOver(sections, index, spelling, await sectionLookupsInTurns(sections));
}

/** The same, its index built in a worker thread so that requests go on being answered meanwhile. */
export async function buildSearchEngineInBackground(sections: readonly DocSection[]): Promise<SearchEngine> {
  return searchEngineFromIndex(sections, await indexSectionsInWorker(sections));
}

/** BM25+ over our normaliser, with coverage evidence and the site's links. */
function searchEngineOver(
  sections: readonly DocSection[],
  index: IndexWithMeaning,
  spelling: SearchableMap<number>,
  lookups: SectionLookups,
): SearchEngine {
  const matcher = indexMatcher(index);
  const nearness = latentRanker(index);
  const sectionCount = Math.max(1, sections.length);
  const termWeight = (term: string) => {
    const frequency = matcher.documentFrequency(term);
    return Math.log(1 + (sectionCount - frequency + 0.5) / (frequency + 0.5));
  };
  const knows = matcher.knows;
  const correct = corrector(spelling);
  const beginsWritten = beginsWrittenWord(spelling);
  const complete = completer(spelling);

  const { sectionsByUrl, pageKeys, pageOf, namedBy, namePrefixes, abbreviations } = lookups;
  /** 2 for the intro of the page the query names, 1 for a section it names, 0 otherwise. */
  const namedRank = (terms: readonly QueryTerm[]) => {
    const named = namedBy.get(
      [...new Set(terms.filter((term) => !term.expansion).map((term) => term.term))].sort().join(' '),
    );
    return (id: number) => (named?.titles.has(id) ? 2 : named?.headings.has(id) ? 1 : 0);
  };
  const pageScore = new Float64Array(lookups.pageCount);

  /** A query's terms; a pasted log's tail adds nothing a reader asked, so only the first part counts. */
  const queryTermsOf = (query: string, { asYouType = false }: { asYouType?: boolean } = {}) => {
    const unfinished = asYouType && /[\p{L}\p{N}]$/u.test(query) ? queryWords(query).at(-1) : undefined;
    // A prefix of the word being typed beats a typo's correction: `firest` is Firestore half typed, not `first`. The
    // letters as typed must begin a docs' word: a stem may where the word never does (`typesence`, stemmed `types`).
    // Letters typed past a word's stem (`getti`, stemmed `get`) begin no stem: the docs' word they begin is searched.
    const correctTyped = (word: string) => {
      if (word !== unfinished || !(matcher.beginsWord(word) || beginsWritten(word))) return correct(word);
      return matcher.beginsWord(stem(word)) ? undefined : (complete(word) ?? correct(word));
    };
    const terms = queryTerms(query.slice(0, longestQuery), knows, correctTyped, matcher.isSubject, abbreviations);
    // The last word's term, if it has one: in `deploy to` the word being typed is the stop word `to`, and `deploy` is
    // finished.
    const typed = unfinished === undefined ? [] : termsOfWord(unfinished);
    const last = terms.filter((term) => !term.expansion).at(-1);
    const lastTyped =
      unfinished !== undefined &&
      (last?.corrected?.typed === unfinished || last?.covers.some((term) => typed.includes(term)));
    return terms.slice(0, mostTerms).map((term): QueryTerm => {
      if (term !== last || !lastTyped) return term;
      const { corrected, ...rest } = term;
      // A word completed is no typo: the box does not say it searched for another word.
      const completed =
        corrected !== undefined && corrected.typed === unfinished && corrected.word.startsWith(corrected.typed);
      return completed ? { ...rest, unfinished: true } : { ...term, unfinished: true };
    });
  };

  /** A term's share in the question's meaning: its rarity in the docs, less for an everyday word. */
  const meaningWeight = (term: QueryTerm) =>
    termWeight(term.term) * (term.generic && !term.unusedWord ? genericShare : 1);

  function search(query: string | readonly QueryTerm[], options: SearchOptions = {}): SearchHit[] {
    const terms = typeof query === 'string' ? queryTermsOf(query, options) : query;
    const typing = options.typing;
    if (terms.length === 0 && !typing) return [];
    const boosts = new Map(
      terms.map((term) => [term.term, term.expansion ? expansionBoost : term.generic ? genericBoost : 1]),
    );
    const unfinished = terms.find((term) => term.unfinished)?.term;
    const currentPage = options.currentPage ? pageKey(parseDocUrl(options.currentPage).path) : undefined;
    const prefixPath = options.pathPrefix ? pageKey(options.pathPrefix) : undefined;
    const seen = new Set<string>();
    const termQueries: TermQuery[] = [];
    for (const { term } of terms) {
      if (term === '' || seen.has(term)) continue;
      seen.add(term);
      termQueries.push({
        term,
        // A known word needs no prefix match (stemming already joins its forms); an unknown one may be cut short.
        // Misspellings were corrected against the docs' own words already, so there is no fuzzy matching.
        prefix: term.length >= 3 && (term === unfinished || !knows(term)),
        boost: boosts.get(term) ?? 1,
      });
    }
    // Hundreds of words begin with one or two letters: only the titles' and headings' most used ones are tried, and
    // only there, as a docs search box lists pages and sections by their names. A single letter tries fewer: the most
    // used words of titles hold many postings, and at a hundred times the handbook 50 of them cost a keystroke twice
    // what a three-letter prefix does.
    if (typing) {
      const named = {
        term: typing,
        prefix: true,
        boost: 1,
        fields: nameFields,
        expandTo: matcher.namingWords(typing, nameFields).slice(0, typing.length === 1 ? letterExpansions : undefined),
      };
      const at = termQueries.findIndex((query) => query.term === typing);
      if (at >= 0) termQueries[at] = named;
      else termQueries.push(named);
    }
    const matches = matcher.match(termQueries, {
      fieldBoosts: fieldBoostList,
      prefixWeight,
      documentBoost: currentPage
        ? (document) => (pageKeys[document] === currentPage ? currentPageBoost : 1)
        : undefined,
    });
    const accepted = (document: number) => {
      if (!prefixPath) return true;
      const page = pageKeys[document] ?? '';
      return page === prefixPath || page.startsWith(`${prefixPath}/`);
    };
    // A score counts each query term that matched by its boost (an everyday word or a rewording for less), or a
    // chatty question ranks the sections that share its filler. Then each section gains a share of its page's score.
    const sectionScore = (document: number) => {
      const quality = matches.quality[document] ?? 0;
      const scaled = (matches.score[document] ?? 0) * quality;
      return { scaled, score: (scaled / Math.max(1, quality)) * (matches.boostSum[document] ?? 0) };
    };
    for (let at = 0; at < matches.count; at += 1) {
      const document = matches.documents[at] ?? 0;
      const page = pageOf[document] ?? 0;
      if (accepted(document)) pageScore[page] = (pageScore[page] ?? 0) + sectionScore(document).score;
    }
    // Only the best `limit` sections get the per-hit work (their matched terms and coverage).
    const named = namedRank(terms);
    const best: Array<{ document: number; named: number; score: number; scaled: number; order: number }> = [];
    const limit = options.limit ?? 8;
    // A section the query names by its title or heading comes first, whatever its score.
    const ranksAbove = (first: (typeof best)[number], second: (typeof best)[number]) =>
      first.named !== second.named
        ? first.named > second.named
        : first.score !== second.score
          ? first.score > second.score
          : first.scaled !== second.scaled
            ? first.scaled > second.scaled
            : first.order < second.order;
    for (let at = 0; at < matches.count; at += 1) {
      const document = matches.documents[at] ?? 0;
      if (!accepted(document)) continue;
      const { scaled, score } = sectionScore(document);
      const candidate = {
        document,
        named: named(document),
        scaled,
        order: at,
        score: score + pageWeight * (pageScore[pageOf[document] ?? 0] ?? 0),
      };
      const worst = best[best.length - 1];
      if (best.length >= limit && worst && !ranksAbove(candidate, worst)) continue;
      let position = best.length;
      while (position > 0 && ranksAbove(candidate, best[position - 1] ?? candidate)) position -= 1;
      best.splice(position, 0, candidate);
      if (best.length > limit) best.pop();
    }
    for (let at = 0; at < matches.count; at += 1) pageScore[pageOf[matches.documents[at] ?? 0] ?? 0] = 0;
    // How near the best sections are in meaning: evidence for coverage (see coverage.ts), not for their order.
    const meaning = nearness?.(terms, (term) => meaningWeight(term) * (boosts.get(term.term) ?? 1));
    return best.flatMap(({ document, score }) => {
      const section = sections[document];
      if (!section) return [];
      const matched = matcher.matchedTermsOf(document, matches.expansions);
      return [
        {
          ...section,
          score,
          matchedTerms: matched.terms,
          matchedQueryTerms: matched.queryTerms,
          coverage: coverageShare(terms, matched.queryTerms, meaningWeight),
          nearness: meaning?.(document),
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
    knows,
    namedFrom: (prefix) => namePrefixes.get(prefix) ?? [],
    sectionAt(url) {
      return isRootRelative(url) ? sectionsByUrl.get(sectionKey(url)) : undefined;
    },
  };
}
