import { randomUUID } from 'node:crypto';
import type { LanguageModel } from 'ai';
import { redactSecrets } from '../../redact-secrets.js';
import { type Retrieval, retrieve } from '../../search/coverage.js';
import type { SearchEngine } from '../../search/engine.js';
import { reorderByMeaning, type SemanticHit } from '../../search/semantic-index.js';
import type { AskAiRequest, AskAiResponse, AskAiSource } from '../contract.js';
import type { CheckedImage } from '../images.js';
import { answerWithModel } from '../model/model-answer.js';
import { closestPages, closestPagesMarkdown, composeDocsOnlyAnswer } from './docs-only-answer.js';

/** What is known of one answered question once its answer is complete; the maintainers' report reads these. */
export type AnsweredQuestion = {
  email: string;
  question: string;
  mode: AskAiResponse['mode'];
  covered: boolean;
  /** The page of the best-ranked section, whether or not it answered. */
  nearestPage: { url: string; title: string } | null;
  sources: AskAiSource[];
  answerId: string;
};

/** What answering needs: the docs, and the model, OCR and embeddings when configured. */
export type AnswerDependencies = {
  publicOrigin: string;
  currentIndex: () => SearchEngine;
  /** The configured language model; without one, answers are built from the docs alone. */
  model?: { languageModel: LanguageModel; timeoutMs: number; vision: boolean; maxOutputTokens: number } | undefined;
  /** Reads the text of the question's screenshots (OCR); without it, screenshots reach only a vision model. */
  readImageText?: ((images: readonly CheckedImage[], signal: AbortSignal) => Promise<string>) | undefined;
  /** Sections nearest in meaning to a question, when an embedding model is configured (hybrid retrieval). */
  semanticSearch?:
    | ((query: string, options: { limit: number; signal?: AbortSignal }) => Promise<SemanticHit[]>)
    | undefined;
};

/** One answer on its way: text pieces as they come, then what it was based on. */
export type AnswerRun = {
  id: string;
  mode: AskAiResponse['mode'];
  question: string;
  covered: boolean;
  nearestPage: AnsweredQuestion['nearestPage'];
  /** Pages near an uncovered question, shown as such and never as sources. */
  closest: AskAiSource[];
  pieces: AsyncIterable<string>;
  /** Complete once `pieces` is exhausted. */
  sources(): AskAiSource[];
};

/** The question to search for: the last user message, with the one before it when the last is a short follow-up. */
export function searchQueryOf(request: AskAiRequest): string {
  const userTexts = request.messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      message.content
        .map((part) => part.text)
        .join(' ')
        .trim(),
    );
  const last = userTexts.at(-1) ?? '';
  const previous = userTexts.at(-2);
  return previous && last.split(/\s+/).length < 4 ? `${previous} ${last}` : last;
}

/** Reads the screenshots of the question, retrieves the sections and starts the answer in the configured mode. */
export async function startAnswer(
  options: AnswerDependencies,
  request: AskAiRequest,
  images: readonly CheckedImage[],
  signal: AbortSignal,
): Promise<AnswerRun> {
  const index = options.currentIndex();
  const typed = searchQueryOf(request);
  // The page boosts retrieval and is named to the model: only the site's own URL of a real page is used, never the
  // client's string (the URL parser drops a query or newlines that would otherwise reach the prompt).
  const page = request.page ? index.sectionAt(request.page)?.pageUrl : undefined;
  // Screenshots of terminals carry tokens; none of them goes to a provider or into the questions log.
  const imageText =
    images.length && options.readImageText ? redactSecrets(await options.readImageText(images, signal)).trim() : '';
  const question = [typed, imageText].filter(Boolean).join('\n');
  // Ranked on the typed words and the screenshot's text together; either may show the handbook covers it.
  const found = retrieve(index, question, {
    limit: 20,
    currentPage: page,
    alsoJudgeBy: imageText ? typed : undefined,
  });
  const meaning = options.semanticSearch ? await options.semanticSearch(question, { limit: 20, signal }) : [];
  const retrieval: Retrieval = { ...found, hits: reorderByMeaning(found.hits, meaning).slice(0, 8) };
  const id = request.answerId ?? randomUUID();
  const best = retrieval.hits[0];
  const nearestPage = best ? { url: best.pageUrl, title: best.pageTitle } : null;
  const covered = retrieval.coverage.covered;

  if (!options.model) {
    const answer = composeDocsOnlyAnswer({
      retrieval,
      termWeight: index.termWeight,
      meaningWeight: index.meaningWeight,
      readFromImages: imageText || undefined,
      imagesUnread: images.length > 0 && !imageText,
    });
    return {
      id,
      mode: 'docs-only',
      question,
      covered,
      nearestPage,
      closest: answer.closest,
      pieces: inPieces(answer.markdown),
      sources: () => answer.sources,
    };
  }

  const answer = answerWithModel({
    model: options.model.languageModel,
    timeoutMs: options.model.timeoutMs,
    vision: options.model.vision,
    maxOutputTokens: options.model.maxOutputTokens,
    request,
    page,
    retrieved: covered ? retrieval.hits : [],
    sectionAt: (url) => index.sectionAt(url),
    publicOrigin: options.publicOrigin,
    imageText,
    signal,
  });
  const closest = covered ? [] : closestPages(retrieval.hits);
  return {
    id,
    mode: 'model',
    question,
    nearestPage,
    covered,
    closest,
    pieces: closest.length ? withClosestPages(answer.pieces, closest) : answer.pieces,
    sources: () => (covered ? answer.sources() : []),
  };
}

/** A model's answer to an uncovered question, followed by the closest pages, as a docs-only answer lists them. */
async function* withClosestPages(
  pieces: AsyncIterable<string>,
  closest: readonly AskAiSource[],
): AsyncGenerator<string> {
  yield* pieces;
  yield `\n\n${closestPagesMarkdown(closest)}`;
}

/**
 * The docs-only answer is ready at once; it is still sent in word-sized pieces so the widget's streaming path is the
 * same for every mode.
 */
async function* inPieces(markdown: string): AsyncGenerator<string> {
  for (const piece of markdown.match(/\S+\s*|\s+/g) ?? []) yield piece;
}
