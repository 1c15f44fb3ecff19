import type { AnswerConfidence, AnswerSource } from '@acme/contract';
import { answerKindsOf } from '../../search/answer-kind.js';
import type { Retrieval } from '../../search/coverage.js';
import type { SearchHit } from '../../search/engine.js';
import { answerPassages } from '../../search/passages.js';
import type { QueryTerm } from '../../search/query.js';
import { alsoInHandbook } from './also-in.js';
import { codeSpan } from './markdown-edits.js';
import { asksForTheWhole, namesHeading, namesSection, quotedSections } from './quoted-sections.js';
import { smallTalkAnswerTo } from './small-talk.js';

export type DocsOnlyAnswer = {
  markdown: string;
  /** The sections the answer quotes; empty when the handbook does not cover the question. */
  sources: AnswerSource[];
  confidence: AnswerConfidence;
  /** The handbook answers it (`confidence` is `answered`). */
  covered: boolean;
  /** The pages nearest to an uncovered question, shown as such, never as sources. */
  closest: AnswerSource[];
  /**
   * A greeting, thanks or a question about Dev Copilot was answered: no verdict on the handbook, shown without a
   * confidence note (its `confidence` is `none`, as nothing in the handbook was quoted).
   */
  smallTalk?: boolean | undefined;
};

/** "Page › Heading", or the page title for a page's intro: how a section is named in answers and sources. */
export const sourceTitle = (section: { pageTitle: string; heading?: string | undefined }) =>
  section.heading ? `${section.pageTitle} › ${section.heading}` : section.pageTitle;

const asSource = (hit: SearchHit): AnswerSource => ({ title: sourceTitle(hit), url: hit.url });

/** The three pages the best sections belong to: what an uncovered question is shown instead of sources. */
export const closestPages = (hits: readonly SearchHit[]): AnswerSource[] =>
  [...new Map(hits.map((hit) => [hit.pageUrl, { title: hit.pageTitle, url: hit.pageUrl }])).values()].slice(0, 3);

/** The pages nearest to a question the handbook does not cover, as the answer lists them (never as sources). */
export const closestPagesMarkdown = (closest: readonly AnswerSource[]) =>
  `These pages come closest and may still help:\n\n${closest.map((page) => `- [${page.title}](${page.url})`).join('\n')}`;

/** Where a reader takes a question the handbook does not answer, in plain words. */
export const askTheTeam =
  'To ask a person, post your question in the #dev-help channel. Once you have the answer, please add it to the handbook so the next reader finds it there.';

/** How an answer that is only the closest the handbook comes opens, so it never reads as a confident one. */
export const closestOpening = 'The handbook may not answer this exactly; the closest it comes is';

const notWhatYouNeed = 'If this is not what you need, post your question in the #dev-help channel.';

/** A second section quoted beside the best one gives its key part and little more, so the answer stays short. */
const secondSectionBudget = 200;

const clipWords = (text: string, limit: number) =>
  text.length <= limit ? text : `${text.slice(0, limit).replace(/\s+\S*$/, '')}…`;

/**
 * The answer without a language model: the parts of the best section (and of a second one when the question needs
 * it) that answer the question, key fact first, each linked to its exact section; when the handbook only comes close,
 * the best section's closest parts, said to be no more than that; or an honest "not covered" with the closest pages.
 */
export function composeDocsOnlyAnswer(options: {
  retrieval: Retrieval;
  termWeight: (term: string) => number;
  meaningWeight: (term: QueryTerm) => number;
  readFromImages?: string | undefined;
  /** The question came with screenshots but no text could be read from them. */
  imagesUnread?: boolean | undefined;
  /** Asked again (a Refresh): the section the earlier answer led with, now behind the others. */
  earlierLead?: { pageTitle: string; heading?: string | undefined; url: string } | undefined;
}): DocsOnlyAnswer {
  const { hits, terms, coverage } = options.retrieval;
  const smallTalk =
    options.readFromImages || options.imagesUnread
      ? undefined
      : smallTalkAnswerTo(
          // In the reader's own words: a follow-up is searched with the question before it.
          options.retrieval.asked,
          terms.every((term) => term.generic),
        );
  if (smallTalk) {
    return { markdown: smallTalk, sources: [], confidence: 'none', covered: false, closest: [], smallTalk: true };
  }
  const kinds = answerKindsOf(options.retrieval.asked);
  const { earlierLead } = options;
  const askedAgain = earlierLead
    ? `\n\nAsked again, this answer leads with another part of the handbook. The section an earlier answer led with, [${sourceTitle(earlierLead)}](${earlierLead.url}), is still its best match.`
    : '';
  // A screenshot's text is shown as code: an address in it must never become a link the reader could follow.
  const imageNote = options.readFromImages
    ? `From your screenshot I read: "${codeSpan(clipWords(options.readFromImages.replace(/\s+/g, ' ').trim(), 240))}".\n\n`
    : options.imagesUnread
      ? 'I could not read any text in your screenshot, so this answer goes by your typed question alone.\n\n'
      : '';

  if (coverage.confidence === 'closest') {
    // The closest the handbook comes is one quote with its link (issue 24): never a list that reads as an answer.
    const [best] = quotedSections({ ...options, hits, terms, kinds });
    if (best) {
      const passages = answerPassages(best, best.matchedTerms, options.termWeight, kinds);
      const also = alsoInHandbook({ hits, quoted: [best], title: sourceTitle, weightOf: options.termWeight, kinds });
      const alsoPart = also ? `\n\n${also}` : '';
      return {
        markdown: `${imageNote}${closestOpening} [${sourceTitle(best)}](${best.url}):\n\n${passages}${alsoPart}${askedAgain}\n\n${notWhatYouNeed}`,
        sources: [asSource(best)],
        confidence: 'closest',
        covered: false,
        closest: [],
      };
    }
  }
  if (coverage.confidence !== 'answered') {
    const closest = closestPages(hits);
    const nearest = closest.length ? `\n\n${closestPagesMarkdown(closest)}` : '';
    return {
      markdown: `${imageNote}The handbook does not seem to cover this.${nearest}\n\n${askTheTeam}`,
      sources: [],
      confidence: 'none',
      covered: false,
      closest,
    };
  }

  const quoted = quotedSections({ ...options, hits, terms, kinds });
  const parts = quoted.map((hit, position) => {
    const passages = answerPassages(hit, hit.matchedTerms, options.termWeight, kinds, {
      budget: position === 0 ? undefined : secondSectionBudget,
      besideBest: position > 0,
      overview: namesSection(hit, terms) || (position === 0 && asksForTheWhole(options.retrieval.question)),
      wholeList: position === 0 && namesHeading(hit, terms),
    });
    return `**[${sourceTitle(hit)}](${hit.url})**\n\n${passages}`;
  });
  const also = alsoInHandbook({ hits, quoted, title: sourceTitle, weightOf: options.termWeight, kinds });
  if (also) parts.push(also);
  return {
    markdown: `${imageNote}${parts.join('\n\n')}${askedAgain}`,
    sources: quoted.map(asSource),
    confidence: 'answered',
    covered: true,
    closest: [],
  };
}
