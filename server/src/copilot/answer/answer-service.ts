import type { AnswerConfidence, AnswerMode, AnswerSource, ApiErrorCode, HandbookSearchPart } from '@acme/contract';
import { redactSecrets } from '../../redact-secrets.js';
import type { Retrieval } from '../../search/coverage.js';
import type { SearchEngine } from '../../search/engine.js';
import type { CheckedImage } from '../images.js';
import { answerWithModel, type ModelPiece } from '../model/model-answer.js';
import { classifyModelError, NoAnswerWritten, reasonOf } from '../model/model-errors.js';
import type { ChatModel } from '../model/model-plugin.js';
import { type CheckedAnswer, checkAnswerLinks, createLinkWatcher, type LinkVerdict } from './answer-links.js';
import { type Conversation, lastQuestionOf } from './asked-question.js';
import { closestPagesMarkdown, composeDocsOnlyAnswer } from './docs-only-answer.js';
import { searchQueryOf } from './follow-up.js';
import { overviewGrounding, questionGrounding } from './grounding.js';
import { afterFirstWords, noticeFor, retrievalAfterSilentModel } from './model-fallback.js';
import { outlineOf, overviewPageOf } from './page-overview.js';
import { retrieveForAnswer, type SemanticSearch } from './retriever.js';

/** What answering needs: the docs, and the model, OCR and embeddings when configured. */
export type AnswerDependencies = {
  publicOrigin: string;
  currentIndex: () => SearchEngine;
  /** The configured language model; without one, answers are built from the docs alone. */
  model?: ChatModel | undefined;
  /**
   * The text of a reader's screenshots (OCR; readers take turns at the one engine), all read within `budgetMs`;
   * without it, screenshots reach only a vision model.
   */
  readImageText?:
    | ((images: readonly CheckedImage[], signal: AbortSignal, reader: string, budgetMs: number) => Promise<string>)
    | undefined;
  semanticSearch?: SemanticSearch | undefined;
};

/**
 * A question's screenshots are read within this, all of them together and the wait for the engine included; with a
 * model, within half its deadline, but never less than `leastImageReadingMs` (a deadline of a few seconds left no
 * time to read a HiDPI capture). Their time counts in the answer's deadline, of which the model keeps at least half.
 */
const imageReadingMs = 15_000;
const leastImageReadingMs = 10_000;

/** A piece of an answer as it is written: its text, or a search the model made (before the text it led to). */
export type AnswerPiece = string | HandbookSearchPart;

/** How far a finished answer rests on the handbook: `covered` is true only for `answered`. */
export type AnswerVerdict = {
  confidence: AnswerConfidence;
  covered: boolean;
  /** The sections the answer rests on; none when the handbook does not cover the question. */
  sources: AnswerSource[];
  /** Pages near an uncovered question, shown as such and never as sources. */
  closest: AnswerSource[];
  /** A greeting, thanks or a question about Dev Copilot answered: no verdict to show beside it (`none` in the log). */
  smallTalk?: boolean | undefined;
};

/** One answer on its way: pieces as they come, then the finished text checked, with its verdict. */
export type AnswerRun = {
  mode: AnswerMode;
  /** For the report: the reader's words in this turn (not a follow-up as searched), then its screenshots' text. */
  question: string;
  /** The question as the reader typed it in this turn, what the insights show (see `askedOf`), secrets masked. */
  asked: string;
  /** The page of the best-ranked section, whether or not it answered. */
  nearestPage: { url: string; title: string } | null;
  /** The answer as it is written. */
  pieces: AsyncIterable<AnswerPiece> | Iterable<AnswerPiece>;
  /** Verdicts on the links of the text so far that were not judged before (for a stream; `final` at its end). */
  judgeLinks: (textSoFar: string, options?: { final?: boolean }) => LinkVerdict[];
  /**
   * The finished answer with every invented link removed, and its verdict. A model's verdict is its own, known once
   * its stream has ended; before that (an answer cut short) it is "none".
   */
  finish: (text: string) => CheckedAnswer & AnswerVerdict;
  /** Why the model wrote nothing, when this docs-only answer stands in for its answer; `reason` is for the log. */
  modelFailure?: { code: ApiErrorCode; reason: string } | undefined;
};

/** The conversation with every credential-looking string in its messages' text replaced by "[redacted]". */
const withSecretsMasked = (conversation: Conversation): Conversation => ({
  ...conversation,
  messages: conversation.messages.map((message) => ({ ...message, text: redactSecrets(message.text) })),
});

/** Enough of a screenshot's text to tell a question of screenshots alone from another, not a pasted log. */
const screenshotTextShown = 120;

/**
 * The question for the maintainers' insights: what the reader typed in this turn, never a follow-up merged with the
 * question before it nor the text of a screenshot; for screenshots alone, the start of their text; else the search.
 */
export function askedOf(typed: string, imageText: string, searched: string): string {
  const read = imageText.replace(/\s+/g, ' ').trim();
  const cut = read.length > screenshotTextShown ? `${read.slice(0, screenshotTextShown).replace(/\s\S*$/, '')}…` : read;
  return typed.trim() || cut || searched;
}

/** Reads the screenshots of the question, retrieves the sections and starts the answer in the configured mode. */
export async function startAnswer(
  options: AnswerDependencies,
  asked: Conversation,
  question: { images: readonly CheckedImage[]; reader: string },
  signal: AbortSignal,
): Promise<AnswerRun> {
  const { images, reader } = question;
  // Credentials a reader pastes into a question (or an earlier one of the chat) are masked before anything reaches a
  // provider (the model, its embeddings) or the questions log, as the text read from screenshots is. The thread keeps
  // what the reader typed: it is theirs.
  const conversation = withSecretsMasked(asked);
  const index = options.currentIndex();
  // The page boosts retrieval and is named to the model: only the site's own URL of a real page is used, never the
  // client's string (the URL parser drops a query or newlines that would otherwise reach the prompt).
  const readersPage = conversation.page ? index.sectionAt(conversation.page) : undefined;
  const page = readersPage?.pageUrl;
  const typed = searchQueryOf(conversation, readersPage?.pageTitle);
  const typedNow = lastQuestionOf(conversation);
  // Screenshots of terminals carry tokens; none of them goes to a provider or into the questions log.
  const readingStarted = performance.now();
  const readingMs = Math.min(
    imageReadingMs,
    Math.max(leastImageReadingMs, (options.model?.timeoutMs ?? Number.POSITIVE_INFINITY) / 2),
  );
  const imageText =
    images.length && options.readImageText
      ? redactSecrets(await options.readImageText(images, signal, reader, readingMs)).trim()
      : '';
  // Stopped while its screenshots were read (a shutdown, the reader gone): no answer that says they held no text.
  signal.throwIfAborted();
  const readingTookMs = performance.now() - readingStarted;
  const overviewUrl = overviewPageOf(conversation, page, index);
  const outline = overviewUrl ? outlineOf(index, overviewUrl) : undefined;
  const grounding = outline
    ? overviewGrounding(outline)
    : await questionGrounding(
        options.semanticSearch,
        index,
        {
          typed,
          asked: typedNow,
          answerBefore: conversation.messages.findLast((message) => message.role === 'assistant')?.text,
          earlierAnswers: conversation.earlierAnswers,
          imageText,
          page,
          imagesSent: images.length > 0,
        },
        signal,
      );
  // A link the model writes in either spelling is kept, pointed at the page's one address (/faqs/#x, not /faqs#x).
  const siteLinks = { publicOrigin: options.publicOrigin, addressOf: (url: string) => index.sectionAt(url)?.url };
  const common = {
    question: [typedNow, imageText].filter(Boolean).join('\n'),
    asked: askedOf(typedNow, imageText, typed),
    nearestPage: grounding.nearestPage,
    judgeLinks: createLinkWatcher(siteLinks),
  };

  /** The docs' answer, opened by `notice` and preceded by `searches` (the model's, when it stands in for one). */
  const docsOnly = (notice?: string, answer = grounding.docsAnswer(), searches: AnswerPiece[] = []): AnswerRun => {
    const markdown = notice ? `${notice}\n\n${answer.markdown}` : answer.markdown;
    const { confidence } = answer;
    const verdict = {
      confidence,
      covered: confidence === 'answered',
      sources: answer.sources,
      closest: answer.closest,
      smallTalk: answer.smallTalk,
    };
    return {
      ...common,
      mode: 'docs-only',
      // Ready at once: one piece; the widget smooths what it shows.
      pieces: [...searches, markdown],
      finish: (text) => ({ ...checkAnswerLinks(text, siteLinks), ...verdict }),
    };
  };
  if (!options.model) return docsOnly();

  // What the model's one search found, for a docs answer standing in for a model that then wrote nothing.
  let searched: Retrieval | undefined;

  const answer = answerWithModel({
    model: options.model.languageModel,
    timeoutMs: options.model.timeoutMs,
    spentMs: readingTookMs,
    vision: options.model.vision,
    maxOutputTokens: options.model.maxOutputTokens,
    conversation,
    page,
    retrieved: grounding.modelSections,
    overviewOf: grounding.overviewOf,
    sectionAt: (url) => index.sectionAt(url),
    search: async (query, toolSignal) => {
      searched = await retrieveForAnswer(
        index,
        { typed: query, imageText: '', page },
        options.semanticSearch,
        toolSignal ?? signal,
      );
      return searched.hits;
    },
    imageText,
    signal,
  });
  let pieces: AsyncIterable<ModelPiece>;
  try {
    pieces = await afterFirstWords(answer.pieces);
  } catch (error) {
    // A reader who stopped, or a server shutting down, wants no answer at all.
    if (signal.aborted) throw error;
    // Nothing was written yet: the docs can still answer, and say whose answer it is and why.
    const modelFailure = { code: classifyModelError(error), reason: reasonOf(error) };
    if (!(error instanceof NoAnswerWritten)) return { ...docsOnly(noticeFor(error)), modelFailure };
    // Reached but silent: the search it made is shown and kept, and the docs answer from what it was given and found.
    const given = grounding.docsAnswer();
    const better = retrievalAfterSilentModel(given.confidence, searched);
    const answer = better
      ? composeDocsOnlyAnswer({ retrieval: better, termWeight: index.termWeight, meaningWeight: index.meaningWeight })
      : given;
    return { ...docsOnly(noticeFor(error), answer, [...error.searches]), modelFailure };
  }
  // Judged once, on the model's own text, when its stream ends: the closest pages added after it are no citations.
  let verdict: AnswerVerdict = { confidence: 'none', covered: false, sources: [], closest: [] };
  async function* judged(): AsyncGenerator<AnswerPiece> {
    let written = '';
    for await (const piece of pieces) {
      if (typeof piece === 'string') written += piece;
      yield piece;
    }
    const { confidence, sources } = answer.verdictOf(checkAnswerLinks(written, siteLinks));
    const closest = confidence === 'none' ? grounding.closest : [];
    verdict = { confidence, covered: confidence === 'answered', sources, closest };
    if (closest.length) yield `\n\n${closestPagesMarkdown(closest)}`;
  }
  return {
    ...common,
    mode: 'model',
    pieces: judged(),
    finish: (text) => ({ ...checkAnswerLinks(text, siteLinks), ...verdict }),
  };
}
