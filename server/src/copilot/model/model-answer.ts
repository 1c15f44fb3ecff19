import { type HandbookSearchPart, handbookSearchToolName } from '@acme/contract';
import { type LanguageModel, stepCountIs, streamText } from 'ai';
import type { DocSection } from '../../search/doc-page.js';
import { type CheckedAnswer, citedNumbers } from '../answer/answer-links.js';
import type { Conversation } from '../answer/asked-question.js';
import { sourceTitle } from '../answer/docs-only-answer.js';
import { type AnswerStatus, answerStatusOf, answerStatusToolName, handbookTools } from './handbook-tools.js';
import { classifyModelError, modelFailure, NoAnswerWritten } from './model-errors.js';
import { type ModelVerdict, modelVerdict } from './model-verdict.js';
import { type ContextSection, conversationForModel, systemPrompt } from './prompt.js';
import { stallTimeoutMs } from './provider-bounds.js';

/** Characters an answer may have per output token before it is cut (English runs about four to a token). */
const charactersPerToken = 6;

/** Sections handed to the model as numbered context. */
export const contextSectionCount = 6;
/** ... and for an overview of a page, enough of its sections to show its shape. */
const overviewSectionCount = 16;

export type ModelAnswerOptions = {
  model: LanguageModel;
  /** The whole answer's deadline (COPILOT_TIMEOUT_SECONDS); a stream silent for a third of it is cut too. */
  timeoutMs: number;
  /** What the answer spent before the model (reading its screenshots): counted within `timeoutMs`, up to half of it. */
  spentMs?: number | undefined;
  vision: boolean;
  maxOutputTokens: number;
  conversation: Conversation;
  /** The page the reader is on, already checked to be a real page of the site. */
  page?: string | undefined;
  /** Retrieved sections, best first; for an overview, the page's sections in its order. */
  retrieved: readonly DocSection[];
  /** The page the reader asks an overview of: the model is given its sections and asked for its purpose and outline. */
  overviewOf?: string | undefined;
  /** Resolves a link the model wrote to the section it leads to; undefined when no such page or section exists. */
  sectionAt: (url: string) => DocSection | undefined;
  /** The search behind the model's `search_handbook` tool: the question retrieval's, best sections first. */
  search: (query: string, signal: AbortSignal | undefined) => Promise<readonly DocSection[]>;
  /** Text read from the question's screenshots, for a model without vision. */
  imageText?: string | undefined;
  /** Aborted when the reader goes away; cancels the upstream request. */
  signal: AbortSignal;
};

/** A piece of a model's answer: its text as written, or the search it made (shown to the reader as a tool call). */
export type ModelPiece = string | HandbookSearchPart;

export type ModelAnswer = {
  /**
   * The answer as it streams, as the model wrote it. Throws an ApiError with a model_* code when the provider fails,
   * and NoAnswerWritten when the run ends without a word of answer.
   */
  pieces: AsyncIterable<ModelPiece>;
  /** How far the finished answer rests on the handbook, and the sections it used (see modelVerdict). */
  verdictOf(answer: CheckedAnswer): ModelVerdict;
};

/**
 * The spec's two steps per run: the model may search once, then answers. A model that calls the search again in its
 * second step is not offered the tool there, and the run ends with that step whatever it asks.
 */
const stepsPerRun = 2;

/** Asks the configured model, grounded in the retrieved sections, and streams its answer back. */
export function answerWithModel(options: ModelAnswerOptions): ModelAnswer {
  const context = options.retrieved.slice(0, options.overviewOf ? overviewSectionCount : contextSectionCount);
  // Sections found by the model's search are numbered after these, so "[7]" cites the first one it found.
  const numbered: DocSection[] = [...context];
  let status: AnswerStatus | undefined;
  // The searches made, shown to the reader once their result is in; a refused second search is never made.
  const searches = new Map<string, HandbookSearchPart>();
  const tools = handbookTools({
    search: options.search,
    onSearch: (search) => {
      numbered.push(...search.sections);
      searches.set(search.part.toolCallId, search.part);
    },
  });
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

  async function* pieces(): AsyncGenerator<ModelPiece> {
    const result = streamText({
      model: options.model,
      system: systemPrompt(contextSections, options.page, options.overviewOf),
      messages: conversationForModel(options.conversation, { vision: options.vision, imageText: options.imageText }),
      tools,
      stopWhen: stepCountIs(stepsPerRun),
      prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { activeTools: [answerStatusToolName] } : {}),
      abortSignal: AbortSignal.any([options.signal, pastTheLimit.signal]),
      // One retry covers a provider's passing hiccup before anything was streamed; more would keep the reader waiting,
      // and so would a long Retry-After, which ends the run at once instead (noLongRetryWait).
      maxRetries: 1,
      // The provider's fetch holds the same stall bound before the first chunk, and caps the bytes (provider.ts).
      timeout: {
        // Whole milliseconds: the SDK's timer (AbortSignal.timeout) refuses a fraction.
        // What reading the screenshots spent counts too, but the model keeps at least half of the deadline.
        totalMs: Math.round(Math.max(options.timeoutMs / 2, options.timeoutMs - (options.spentMs ?? 0))),
        chunkMs: stallTimeoutMs(options.timeoutMs),
      },
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
      } else if (part.type === 'tool-result' && part.toolName === handbookSearchToolName && !part.dynamic) {
        const made = searches.get(part.toolCallId);
        if (made) yield made;
      } else if (part.type === 'tool-call' && part.toolName === answerStatusToolName && !part.invalid) {
        status = answerStatusOf(part.input);
      } else if (part.type === 'error') {
        throw modelFailure(classifyModelError(part.error), part.error);
      } else if (part.type === 'finish' && part.finishReason === 'length') {
        // Cut off by the output limit: say so rather than let a half answer pass for a whole one.
        cutOff = true;
      } else if (part.type === 'abort') {
        // Either the reader went away (our signal) or the SDK's own timeout fired.
        throw modelFailure(options.signal.aborted ? 'cancelled:ask' : 'model_timeout:ask', options.signal.reason);
      }
    }
    if (cutOff && answerText.trim())
      yield '\n\n*(The answer was cut off at its length limit. Ask for the rest, or a shorter answer.)*';
    // Reached, but silent: the docs answer instead, from what the model was given and what its search found.
    if (!answerText.trim()) throw new NoAnswerWritten([...searches.values()]);
  }

  return {
    pieces: pieces(),
    verdictOf(answer) {
      const byNumber = citedNumbers(answer.text).flatMap((cited) => numbered[cited - 1] ?? []);
      return modelVerdict(status, { urls: answer.kept, sections: byNumber }, options.sectionAt);
    },
  };
}
