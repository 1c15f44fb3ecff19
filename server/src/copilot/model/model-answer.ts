import type { AnswerSource, AskAiRequest } from '@acme/contract';
import { type LanguageModel, streamText } from 'ai';
import type { DocSection } from '../../search/doc-page.js';
import { type CheckedAnswer, citedNumbers } from '../answer/answer-links.js';
import { sourceTitle } from '../answer/docs-only-answer.js';
import { classifyModelError, ModelRunError } from './model-errors.js';
import { type ContextSection, conversationForModel, systemPrompt } from './prompt.js';

/** Characters an answer may have per output token before it is cut (English runs about four to a token). */
const charactersPerToken = 6;

/** Sections handed to the model as numbered context. */
export const contextSectionCount = 6;
/** ... and for an overview of a page, enough of its sections to show its shape. */
const overviewSectionCount = 16;

export type ModelAnswerOptions = {
  model: LanguageModel;
  timeoutMs: number;
  vision: boolean;
  maxOutputTokens: number;
  request: AskAiRequest;
  /** The page the reader is on, already checked to be a real page of the site. */
  page?: string | undefined;
  /** Retrieved sections, best first; for an overview, the page's sections in its order. */
  retrieved: readonly DocSection[];
  /** The page the reader asks an overview of: the model is given its sections and asked for its purpose and outline. */
  overviewOf?: string | undefined;
  /** Resolves a link the model wrote to the section it leads to; undefined when no such page or section exists. */
  sectionAt: (url: string) => DocSection | undefined;
  /** Text read from the question's screenshots, for a model without vision. */
  imageText?: string | undefined;
  /** Aborted when the reader goes away; cancels the upstream request. */
  signal: AbortSignal;
};

export type ModelAnswer = {
  /** The answer as it streams, as the model wrote it. Throws a ModelRunError when the provider fails. */
  pieces: AsyncIterable<string>;
  /** The sections the finished answer used: linked, or cited by number. */
  sourcesOf(answer: CheckedAnswer): AnswerSource[];
};

/** Asks the configured model, grounded in the retrieved sections, and streams its answer back. */
export function answerWithModel(options: ModelAnswerOptions): ModelAnswer {
  const context = options.retrieved.slice(0, options.overviewOf ? overviewSectionCount : contextSectionCount);
  const contextSections: ContextSection[] = context.map((section) => ({
    title: sourceTitle(section),
    url: section.url,
    text: section.text,
  }));
  let answerText = '';
  let cutOff = false;
  // A provider that ignores the token limit must not stream without end: about six characters a token, then stop.
  const characterLimit = options.maxOutputTokens * charactersPerToken;
  const pastTheLimit = new AbortController();

  async function* pieces(): AsyncGenerator<string> {
    const result = streamText({
      model: options.model,
      system: systemPrompt(contextSections, options.page, options.overviewOf),
      messages: conversationForModel(options.request, { vision: options.vision, imageText: options.imageText }),
      abortSignal: AbortSignal.any([options.signal, pastTheLimit.signal]),
      // One retry covers a provider's passing hiccup before anything was streamed; more would keep the reader waiting.
      maxRetries: 1,
      timeout: { totalMs: options.timeoutMs, chunkMs: Math.max(1000, Math.round(options.timeoutMs / 3)) },
      temperature: 0.2,
      maxOutputTokens: options.maxOutputTokens,
      // Failures arrive as `error` parts below; the default handler would only print them to the console.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        const text = part.text.slice(0, Math.max(0, characterLimit - answerText.length));
        answerText += text;
        if (text) yield text;
        if (text.length < part.text.length) {
          cutOff = true;
          pastTheLimit.abort(new Error('The answer passed its length limit'));
          break;
        }
      } else if (part.type === 'error') {
        throw new ModelRunError(classifyModelError(part.error), { cause: part.error });
      } else if (part.type === 'finish' && part.finishReason === 'length') {
        // Cut off by the output limit: say so rather than let a half answer pass for a whole one.
        cutOff = true;
      } else if (part.type === 'abort') {
        // Either the reader went away (our signal) or the SDK's own timeout fired.
        throw new ModelRunError(
          options.signal.aborted
            ? { code: 'cancelled:ask', message: 'The question was cancelled.' }
            : { code: 'model_timeout:ask', message: 'The model took too long to answer. Try again.' },
          { cause: options.signal.reason },
        );
      }
    }
    if (cutOff && answerText.trim())
      yield '\n\n*(The answer was cut off at its length limit. Ask for the rest, or a shorter answer.)*';
    if (!answerText.trim()) {
      throw new ModelRunError({
        code: 'model_bad_response:ask',
        message: 'The model sent an empty answer. Try again.',
      });
    }
  }

  return {
    pieces: pieces(),
    sourcesOf(answer) {
      const used = new Map<string, AnswerSource>();
      for (const url of answer.kept) {
        const section = options.sectionAt(url);
        if (section && !used.has(section.url)) used.set(section.url, { title: sourceTitle(section), url: section.url });
      }
      for (const cited of citedNumbers(answer.text)) {
        const section = context[cited - 1];
        if (section && !used.has(section.url)) used.set(section.url, { title: sourceTitle(section), url: section.url });
      }
      return [...used.values()];
    },
  };
}
