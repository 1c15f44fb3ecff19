import type { AnswerConfidence, AnswerSource } from '@acme/contract';
import type { DocSection } from '../../search/doc-page.js';
import type { SearchEngine } from '../../search/engine.js';
import { retrieveAsked } from './asked-question.js';
import { closestPages, composeDocsOnlyAnswer } from './docs-only-answer.js';
import { aheadOfWhatWasQuoted, behindEarlierLeads } from './follow-up.js';
import { composePageOverview, type PageOutline } from './page-overview.js';
import { retrieveForAnswer, type SemanticSearch } from './retriever.js';

/** What an answer rests on: the sections retrieved for the question, or the whole page it asks an overview of. */
export type Grounding = {
  nearestPage: { url: string; title: string } | null;
  /** The answer from the docs alone. */
  docsAnswer: () => {
    markdown: string;
    sources: AnswerSource[];
    closest: AnswerSource[];
    confidence: AnswerConfidence;
    smallTalk?: boolean | undefined;
  };
  /**
   * The sections the model is given: the best ones whatever the docs-only coverage rule says of them (the model
   * judges whether they answer), or the page's own in its order for an overview.
   */
  modelSections: readonly DocSection[];
  /** Pages listed after a model's answer that says the handbook does not cover the question. */
  closest: AnswerSource[];
  /** The page the reader asks an overview of. */
  overviewOf?: string | undefined;
};

/** An overview of one page: its purpose and sections, whatever the search would rank for the question's words. */
export function overviewGrounding(outline: PageOutline): Grounding {
  return {
    nearestPage: { url: outline.url, title: outline.title },
    docsAnswer: () => ({ ...composePageOverview(outline), closest: [], confidence: 'answered' as const }),
    modelSections: outline.sections,
    closest: [],
    overviewOf: outline.url,
  };
}

/** The sections retrieved for the question, and whether they cover it. */
export async function questionGrounding(
  semanticSearch: SemanticSearch | undefined,
  index: SearchEngine,
  question: {
    typed: string;
    asked: string;
    answerBefore: string | undefined;
    /** The answers the question already had, when a Refresh asks for another. */
    earlierAnswers: readonly string[] | undefined;
    imageText: string;
    page: string | undefined;
    imagesSent: boolean;
  },
  signal: AbortSignal,
): Promise<Grounding> {
  const { typed, asked, imageText, page } = question;
  const search = (text: string) =>
    retrieveForAnswer(index, { typed: text, imageText, page, asked }, semanticSearch, signal);
  const addressOf = (url: string) => index.sectionAt(url)?.url;
  const searched = aheadOfWhatWasQuoted(
    await retrieveAsked(search, { searched: typed, asked }),
    question.answerBefore,
    addressOf,
  );
  const retrieval = behindEarlierLeads(searched, question.earlierAnswers, addressOf);
  // A Refresh that leads with another section says so, and where the best match still is.
  const earlierLead = retrieval.hits[0] === searched.hits[0] ? undefined : searched.hits[0];
  const best = retrieval.hits[0];
  // A page that shares only everyday words with the question is not near it: "what is the weather tomorrow" is no
  // gap in the page that happens to say "tomorrow", and the insights would tell the maintainers to extend that page.
  const subject = new Set(retrieval.terms.filter((term) => !term.generic).map((term) => term.term));
  const near = best && [...best.matchedQueryTerms].some((term) => subject.has(term));
  return {
    nearestPage: best && near ? { url: best.pageUrl, title: best.pageTitle } : null,
    docsAnswer: () =>
      composeDocsOnlyAnswer({
        retrieval,
        termWeight: index.termWeight,
        meaningWeight: index.meaningWeight,
        readFromImages: imageText || undefined,
        imagesUnread: question.imagesSent && !imageText,
        earlierLead,
      }),
    modelSections: retrieval.hits,
    closest: closestPages(retrieval.hits),
  };
}
