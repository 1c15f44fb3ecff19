import type { AnswerConfidence, AnswerMode, AnswerSource } from '@acme/contract';
import type { FastifyInstance } from 'fastify';
import { recordQuestion } from '../store/questions.js';
import { type AnswerRun, startAnswer } from './answer/answer-service.js';
import type { Conversation } from './answer/asked-question.js';
import type { CopilotObserver } from './copilot-observer.js';
import type { CheckedImage } from './images.js';
import { readImageText } from './ocr/read-image-text.js';
import type { RunningAnswers } from './turn/running-answers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Dev Copilot's answering, inside its routes' plugin (copilot/routes.ts) only. */
    copilot: Copilot;
  }
}

/** What is known of one answered question once its answer is stored; the maintainers' report reads these. */
export type AnsweredQuestion = {
  /** The reader's subject key, as the threads are owned (src/auth/reader-identity.ts). */
  reader: string;
  /** As typed, then its screenshots' text (the report); `asked`, as typed alone (the insights show that). */
  question: string;
  asked: string;
  mode: AnswerMode;
  confidence: AnswerConfidence;
  covered: boolean;
  nearestPage: { url: string; title: string } | null;
  sources: AnswerSource[];
  answerId: string;
  /** A greeting or thanks answered: no question of the handbook, so no entry of the report (no gap of it either). */
  smallTalk?: boolean | undefined;
};

/** What answers a question, asked statelessly (/api/askAi) or in a turn of a thread (/api/turns). */
export type Copilot = {
  /** Starts the answer to a question with this server's handbook, models and OCR. */
  answer(
    conversation: Conversation,
    question: { images: readonly CheckedImage[]; reader: string },
    signal: AbortSignal,
  ): Promise<AnswerRun>;
  /** The answers being written, at most so many per reader. */
  running: RunningAnswers;
  /** Logs an answered question for the maintainers' report, small talk aside; never throws. */
  record(answered: AnsweredQuestion): Promise<void>;
  /** Counts questions, their coverage and latency, and why answers failed (the server's metrics). */
  observer: CopilotObserver | undefined;
};

/** The largest question body: four screenshots and a long text. */
export const questionBodyLimit = 32 * 1024 * 1024;

/** Dev Copilot on the instance's search, models, OCR, store and metrics. */
export function createCopilot(app: FastifyInstance, running: RunningAnswers): Copilot {
  const { searchIndex, model, imageText, store } = app;
  const answering = {
    publicOrigin: app.config.publicUrl.origin,
    currentIndex: searchIndex.current,
    model: model.chat,
    semanticSearch: searchIndex.semantic,
    readImageText: (images: readonly CheckedImage[], signal: AbortSignal, reader: string, budgetMs: number) =>
      readImageText(imageText, { images, reader }, signal, app.log, budgetMs),
  };
  return {
    answer: (conversation, question, signal) => startAnswer(answering, conversation, question, signal),
    running,
    record: async (answered) => {
      if (answered.smallTalk) return;
      await recordQuestion(store.db, {
        reader: answered.reader,
        question: answered.question,
        asked: answered.asked,
        mode: answered.mode,
        covered: answered.covered,
        confidence: answered.confidence,
        nearestPage: answered.nearestPage,
        sources: answered.sources,
        answerMessageId: answered.answerId,
      }).catch((error: unknown) => app.log.error({ err: error }, 'could not record the answered question'));
    },
    observer: app.metrics?.copilot,
  };
}
