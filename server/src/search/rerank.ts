import { analyze } from './analyze.js';
import { type AnswerKind, answerKindsOf } from './answer-kind.js';
import type { SearchEngine, SearchHit } from './engine.js';
import { bestUnitShare } from './passages.js';
import type { QueryTerm } from './query.js';
import { remembered } from './remembered.js';
import { fittedRerank } from './rerank-weights.js';
import { searchNameOf } from './section-lookups.js';
import { sectionsNamedFrom, wordBeingTyped } from './typing.js';

/**
 * The Copilot's order of the engine's best sections, learned from the tuning questions: a logistic regression over
 * what each candidate shows (its score against the best one's, its place, the share of the question it holds, its
 * cosine in the latent space, the share in its title and headings, the share its best single unit holds, whether it
 * is a page's intro, whether it has text of its own, whether it holds the question's rarest word, the share held by
 * its best unit that holds the kind of answer asked for (a duration for "how long", a command), how far its share,
 * cosine, headings, best unit and best such unit fall behind the best candidate's, and the share of its own heading
 * the question names) scores how likely it answers the question.
 * Fitted by server/test-support/rerank-fit.ts, which writes rerank-weights.ts. The search box lists its sections in
 * this order too (`searchBox`).
 */
export type RerankWeights = {
  fitted: string;
  features: string[];
  missing: number[];
  mean: number[];
  scale: number[];
  weights: number[];
  intercept: number;
  penalty: number;
};

export const rerankWeights: RerankWeights = fittedRerank;

export const rerankFeatureNames = [
  'score',
  'place',
  'coverage',
  'nearness',
  'heading',
  'unit',
  'intro',
  'ownText',
  'rarest',
  'coverageBehind',
  'nearnessBehind',
  'headingBehind',
  'unitBehind',
  'kindUnit',
  'kindUnitBehind',
  'headingNamed',
] as const;

/** How many of the engine's best sections are looked at again. */
export const rerankCandidates = 20;

/** A section's title and headings, analysed: half the cost of the box's learned order when made on every keystroke. */
const termsOfNames = remembered((names): ReadonlySet<string> => new Set(analyze(names)), { entries: 4096 });
const rememberedSearchName = remembered(searchNameOf, { entries: 4096 });

/**
 * The share of a heading's own terms the question holds, reworded ones too (`roll back` names Rollback); undefined for
 * a heading without terms. 1: the question names it.
 */
export function headingNamedShare(heading: string, terms: readonly QueryTerm[]): number | undefined {
  const named = termsOfNames(heading);
  if (named.size === 0) return undefined;
  const asked = new Set(terms.flatMap((term) => [term.term, ...term.covers]));
  let held = 0;
  for (const term of named) if (asked.has(term)) held += 1;
  return held / named.size;
}

/** Each candidate's features, in the order of `rerankFeatureNames`; undefined where one cannot be had. */
export function rerankFeatures(
  terms: readonly QueryTerm[],
  hits: readonly SearchHit[],
  weightOf: (term: QueryTerm) => number,
  /** The kinds of answer the question asks for (answer-kind.ts), most specific first. */
  kinds: readonly AnswerKind[] = [],
): Array<Array<number | undefined>> {
  const [kind] = kinds;
  // The reader's own names and numbers count where the docs hold them (`502` for "502 Bad Gateway"), as in coverage:
  // a candidate without one that another candidate holds falls behind it.
  const heldSomewhere = (term: QueryTerm) => hits.some((hit) => hit.matchedQueryTerms.has(term.term));
  const asked = terms.filter((term) => !term.expansion && (!term.optional || heldSomewhere(term)));
  const weights = new Map(asked.map((term) => [term.term, weightOf(term)]));
  const total = asked.reduce((sum, term) => sum + weightOf(term), 0);
  const top = hits[0]?.score ?? 0;
  // The question's weightiest term (the rarest in the docs, everyday words discounted) is most often its subject: a
  // section without it answers something else.
  const rarest = asked.reduce<QueryTerm | undefined>(
    (found, term) => (found === undefined || weightOf(term) > weightOf(found) ? term : found),
    undefined,
  );
  const headingNamed = (hit: SearchHit) => headingNamedShare(hit.heading ?? hit.pageTitle, terms);
  const own = hits.map((hit, place) => {
    const named = termsOfNames([hit.pageTitle, hit.parentHeading, hit.heading].join(' '));
    const heading = asked.filter((term) => named.has(term.term)).reduce((sum, term) => sum + weightOf(term), 0);
    return [
      top > 0 ? hit.score / top : 0,
      Math.log1p(place),
      hit.coverage,
      hit.nearness,
      total > 0 ? heading / total : 0,
      bestUnitShare(hit, weights),
      hit.level === 1 ? 1 : 0,
      hit.blocks.length > 0 ? 1 : 0,
      rarest !== undefined && hit.matchedQueryTerms.has(rarest.term) ? 1 : 0,
      kind === undefined ? undefined : bestUnitShare(hit, weights, kind),
    ];
  });
  // How far a candidate falls behind the best candidate's share, cosine, headings and best unit: a section
  // is judged against what the docs offer for this question, not against a fixed scale.
  const compared = [2, 3, 4, 5, 9];
  const bestOf = compared.map((at) =>
    Math.max(...own.flatMap((features) => (features[at] === undefined ? [] : [features[at]]))),
  );
  const behind = (features: ReadonlyArray<number | undefined>, place: number) => {
    const value = features[compared[place] ?? -1];
    return value === undefined ? undefined : value - (bestOf[place] ?? value);
  };
  return own.map((features, place) => [
    ...features.slice(0, 9),
    ...[0, 1, 2, 3].map((at) => behind(features, at)),
    features[9],
    behind(features, 4),
    headingNamed(hits[place] as SearchHit),
  ]);
}

const likelihoodOf = (features: ReadonlyArray<number | undefined>, weights: RerankWeights) => {
  let sum = weights.intercept;
  features.forEach((value, index) => {
    const present = value ?? weights.missing[index] ?? 0;
    sum += ((weights.weights[index] ?? 0) * (present - (weights.mean[index] ?? 0))) / (weights.scale[index] ?? 1);
  });
  return sum;
};

/**
 * Whether a page title holds every one of `words` (the question's terms as the engine names sections). The word still
 * being typed, `unfinished`, may be the beginning of one of the title's words (`cloudfla`), as the engine matched it.
 */
function titleHoldsAll(title: string, words: readonly string[], unfinished?: string): boolean {
  const titleWords = rememberedSearchName(title).split(' ');
  return words.every((word) =>
    word === unfinished ? titleWords.some((titleWord) => titleWord.startsWith(word)) : titleWords.includes(word),
  );
}

/**
 * The hits in the learned order. A section the question names by its page title or heading, word for word, stays
 * first, as the engine put it: typed or asked as "how do I <heading>", that section is what the reader wants. In the
 * search box, then a page's intro whose title holds every word typed ("polaris", "app bridge", "go live"): the learned
 * order, fitted on questions whose answers are mostly a page's parts, put such a page's intro seventh, under its own
 * sections. Not for Dev Copilot's questions: on the tuning set it moved three answers off their section.
 */
export function rerank(
  terms: readonly QueryTerm[],
  hits: readonly SearchHit[],
  weightOf: (term: QueryTerm) => number,
  weights: RerankWeights = rerankWeights,
  {
    titledIntrosFirst = false,
    unfinished,
    kinds = [],
  }: {
    /** The search box's: a page's intro whose title holds every word typed goes first too. */
    titledIntrosFirst?: boolean;
    /** The search box's term of the word still being typed: a title's word it begins counts as held. */
    unfinished?: string | undefined;
    /** The kinds of answer the question asks for (answer-kind.ts). */
    kinds?: readonly AnswerKind[];
  } = {},
): SearchHit[] {
  // As the engine names sections (section-lookups.ts): the question's own terms, sorted, against each name's.
  const name = [...new Set(terms.filter((term) => !term.expansion).map((term) => term.term))].sort().join(' ');
  const words = name === '' ? [] : name.split(' ');
  /**
   * As the engine ranks them: 3 for the intro of the page the question names, 2 for a section it names, 1 for the
   * intro of a page whose title holds the whole question.
   */
  const namedRank = (hit: SearchHit) =>
    name === ''
      ? 0
      : hit.level === 1 && rememberedSearchName(hit.pageTitle) === name
        ? 3
        : hit.heading !== undefined && rememberedSearchName(hit.heading) === name
          ? 2
          : titledIntrosFirst && hit.level === 1 && titleHoldsAll(hit.pageTitle, words, unfinished)
            ? 1
            : 0;
  const features = rerankFeatures(terms, hits, weightOf, kinds);
  const scored = hits.map((hit, place) => ({
    hit,
    place,
    named: namedRank(hit),
    score: likelihoodOf(features[place] ?? [], weights),
  }));
  scored.sort(
    (first, second) => second.named - first.named || second.score - first.score || first.place - second.place,
  );
  return scored.map((entry) => entry.hit);
}

/**
 * What the search box lists for what is typed (the last word may be unfinished): the engine's best `limit` sections in
 * the learned order above, so that the box and Dev Copilot put the same section first; a page title or heading typed
 * stays first. The weights were fitted on whole questions (rerank-fit.ts); `npm run bench` measures the box as well.
 * While the last word has only a letter or two (typing.ts), the sections whose titles or headings have a word it
 * begins: alone, as made with the index; after other words, ranked with them by the engine.
 */
export function searchBox(
  engine: SearchEngine,
  typed: string,
  options: { limit: number; pathPrefix?: string | undefined },
  terms: QueryTerm[] = engine.queryTerms(typed, { asYouType: true }),
): SearchHit[] {
  const typing = wordBeingTyped(engine, typed, terms);
  // Under a folder (`ctx`), the lists made with the index may hold none of its pages: the engine looks for them.
  if (typing?.alone && !options.pathPrefix) {
    const named = sectionsNamedFrom(engine, typing.word, options.limit);
    if (named.length > 0) return named;
  }
  // A space after the last word says it is finished (`cloud `): no longer a beginning of longer words.
  const asYouType = /[\p{L}\p{N}]$/u.test(typed);
  // Only the sections listed are reordered: looking further down, as the Copilot does, found the right one first no
  // more often on the tuning questions, at several times the cost of a keystroke.
  const listed = engine.search(terms, {
    limit: options.limit,
    pathPrefix: options.pathPrefix,
    asYouType,
    typing: typing?.searched ? typing.word : undefined,
  });
  const unfinished = terms.find((term) => term.unfinished)?.term;
  return rerank(
    terms,
    withTitledIntros(engine, terms, listed, options.limit, unfinished),
    engine.meaningWeight,
    rerankWeights,
    { titledIntrosFirst: true, unfinished, kinds: answerKindsOf(typed) },
  );
}

/**
 * The hits, with the intro of each page whose title holds every word typed ("ttl" for Firestore TTL, "cloudfla" for
 * Cloudflare Tunnel) ahead of them (the last hits give way when `limit` are listed already), when the engine listed
 * parts of that page but not the page itself: every section of a page matches its title's words, and a short intro
 * weighs less than its long parts in the engine's scores, while the reader who types a page's name wants the page. The
 * intro takes its first part's score and matches (its title holds the words), and rerank() puts it first.
 */
function withTitledIntros(
  engine: SearchEngine,
  terms: readonly QueryTerm[],
  hits: readonly SearchHit[],
  limit: number,
  unfinished: string | undefined,
): SearchHit[] {
  const words = [...new Set(terms.filter((term) => !term.expansion).map((term) => term.term))];
  if (words.length === 0) return [...hits];
  const listedPages = new Set(hits.filter((hit) => hit.level === 1).map((hit) => hit.pageUrl));
  const intros: SearchHit[] = [];
  for (const hit of hits) {
    if (listedPages.has(hit.pageUrl)) continue;
    listedPages.add(hit.pageUrl);
    const intro = titleHoldsAll(hit.pageTitle, words, unfinished) ? engine.sectionAt(hit.pageUrl) : undefined;
    if (intro?.level === 1) intros.push({ ...hit, ...intro });
  }
  if (intros.length === 0) return [...hits];
  return [...intros, ...hits].slice(0, limit);
}
