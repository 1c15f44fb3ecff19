import { analyze } from '../../search/analyze.js';
import type { AnswerKind } from '../../search/answer-kind.js';
import type { SearchHit } from '../../search/engine.js';
import { coverageShare, type QueryTerm } from '../../search/query.js';
import { headingNamedShare } from '../../search/rerank.js';
import { plainOf } from '../../search/section-units.js';
import { keyUnitScore } from '../../search/unit-scores.js';

/** A second section is quoted when it holds this much more of the question than the best one alone ... */
const secondSectionGain = 0.05;
/** ... and ranks at least this close to the best. */
const secondSectionScore = 0.6;
/**
 * A second section is also quoted when one of the next two holds a part that answers the question nearly as well as
 * the best section's best part (the number asked for in the next section, while the best one only names the topic).
 */
const secondKeyShare = 0.7;
const secondKeyDepth = 2;
/** A question this short that only repeats a section's headings asks for the section as a whole ("release window"). */
const overviewTerms = 4;

/**
 * The best section, and a second one when the question needs more than the best one holds, or when the next
 * sections hold a part that answers it nearly as well as the best one's.
 */
export function quotedSections(options: {
  hits: readonly SearchHit[];
  terms: readonly QueryTerm[];
  meaningWeight: (term: QueryTerm) => number;
  termWeight: (term: string) => number;
  kinds: readonly AnswerKind[];
}): SearchHit[] {
  const { terms, meaningWeight, termWeight, kinds } = options;
  // A heading whose text all sits in its subsections has nothing of its own to quote.
  const [best, ...rest] = options.hits.filter((hit) => hit.blocks.length > 0);
  if (!best) return [];
  const keyOf = (hit: SearchHit) => keyUnitScore(hit, hit.matchedTerms, termWeight, kinds);
  const bestKey = keyOf(best);
  // A best section that matched by its headings alone has no part to compare with: nothing is nearly as good as none.
  const nearlyAsGood =
    bestKey > 0 ? rest.slice(0, secondKeyDepth).find((hit) => keyOf(hit) >= bestKey * secondKeyShare) : undefined;
  if (nearlyAsGood) return [best, nearlyAsGood];
  const candidates = [
    ...rest.filter((hit) => hit.pageUrl !== best.pageUrl),
    ...rest.filter((hit) => hit.pageUrl === best.pageUrl),
  ];
  const second = candidates.find((hit) => {
    if (hit.score < best.score * secondSectionScore) return false;
    const together = coverageShare(
      terms,
      new Set([...best.matchedQueryTerms, ...hit.matchedQueryTerms]),
      meaningWeight,
    );
    return together - best.coverage >= secondSectionGain;
  });
  return second ? [best, second] : [best];
}

/** "the whole checklist", "all the steps", "step by step": the reader wants a list or procedure entire, not its key line. */
const wholeAsked =
  /\b(whole|entire|every (step|item|point)|all (of )?the (steps|items|points|rules|checks)|step[- ]by[- ]step)\b/i;
export const asksForTheWhole = (question: string) => wholeAsked.test(question);

/** The question is a few words that all stand in the section's own headings: it asks for the section as a whole. */
export function namesSection(hit: SearchHit, terms: readonly QueryTerm[]): boolean {
  if (terms.filter((term) => !term.expansion).length > overviewTerms) return false;
  const headings = new Set(analyze(plainOf([hit.pageTitle, hit.parentHeading ?? '', hit.heading ?? ''].join(' '))));
  return [...hit.matchedTerms].every((term) => headings.has(term));
}

/**
 * Every word of the section's own heading stands in the question ("what are the breaking changes ..." for Breaking
 * changes), reworded ones too: the question asks for what the section lists, not for one line of it.
 */
export const namesHeading = (hit: SearchHit, terms: readonly QueryTerm[]): boolean =>
  hit.heading !== undefined && headingNamedShare(hit.heading, terms) === 1;
