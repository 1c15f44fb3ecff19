import type { FastifyBaseLogger } from 'fastify';
import { type ImageInput, type ImageTextReader, OcrError } from './image-text-reader.js';

/**
 * The text of a question's screenshots, one after another, read for its reader (readers take turns at the engine).
 * A screenshot that cannot be read is skipped and logged: the question is still answered, from what the reader typed.
 * All of them share `budgetMs`, the wait for the engine included: a question of four slow images takes no longer than
 * a question of one, and those not read by then are skipped the same way.
 */
export async function readImageText(
  reader: ImageTextReader,
  question: { images: readonly ImageInput[]; reader: string },
  signal: AbortSignal,
  log: FastifyBaseLogger,
  budgetMs: number,
): Promise<string> {
  // A timer of our own rather than AbortSignal.timeout: inside AbortSignal.any, Node 20 lets that signal be collected
  // as garbage before it fires, and the question then waited out each image's own timeout in turn.
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), budgetMs);
  const wait = AbortSignal.any([signal, budget.signal]);
  const texts: string[] = [];
  try {
    for (const [index, image] of question.images.entries()) {
      if (budget.signal.aborted) {
        const left = question.images.length - index;
        log.warn(
          { code: 'timeout:ocr' },
          `${left} screenshot(s) not read: the question's ${budgetMs / 1000} s of OCR ran out`,
        );
        break;
      }
      try {
        const read = await reader.read(image, wait, question.reader);
        if (read.problem) log.info({ code: read.problem.code }, read.problem.message);
        if (read.text) texts.push(read.text);
      } catch (error) {
        if (!(error instanceof OcrError)) throw error;
        log.warn({ code: error.code }, `could not read a screenshot: ${error.message}`);
        if (signal.aborted) break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return texts.join('\n');
}
