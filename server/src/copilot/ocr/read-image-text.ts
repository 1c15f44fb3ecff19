import type { FastifyBaseLogger } from 'fastify';
import { type ImageInput, type ImageTextReader, OcrError } from './image-text-reader.js';

/** However busy the engine is, a question waits at most this long for its screenshots to be read. */
const totalWaitMs = 20_000;

/**
 * The text of a question's screenshots, one after another, read for its reader (readers take turns at the engine). A screenshot that cannot be read is skipped and logged:
 * the question is still answered, from what the reader typed.
 */
export async function readImageText(
  reader: ImageTextReader,
  question: { images: readonly ImageInput[]; reader: string },
  signal: AbortSignal,
  log: FastifyBaseLogger,
): Promise<string> {
  const wait = AbortSignal.any([signal, AbortSignal.timeout(totalWaitMs)]);
  const texts: string[] = [];
  for (const image of question.images) {
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
  return texts.join('\n');
}
