import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import type Tesseract from 'tesseract.js';

/** One OCR engine: reads the text of one image at a time. */
export type RecognizingWorker = {
  /** Resolves with the raw text; rejects with `UnreadableImage` when the engine cannot decode or survive the image. */
  recognize(bytes: Buffer): Promise<string>;
  terminate(): Promise<void>;
};

/** The engine could not read this image (bad bytes, an encoding its decoders lack, or the engine died on it). */
export class UnreadableImage extends Error {
  override name = 'UnreadableImage';
  constructor(
    message: string,
    /** The engine itself failed, not just this image's decoding: it must not be used again. */
    readonly engineFailed = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const requireFromHere = createRequire(import.meta.url);

/**
 * The English LSTM model shipped in @tesseract.js-data/eng ("best_int", the one tesseract.js would otherwise download
 * from a CDN for the LSTM engine). Resolved from node_modules so nothing is fetched: this network has no CDN.
 */
export const englishLanguageDirectory = path.join(
  path.dirname(requireFromHere.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/**
 * Starts a tesseract.js worker thread with English loaded, entirely from local files: in Node the worker script and
 * the WebAssembly core come from tesseract.js and tesseract.js-core in node_modules, and `langPath` is a directory.
 * `cacheMethod: 'none'` stops it writing eng.traineddata into the working directory.
 */
export async function startTesseractWorker(): Promise<RecognizingWorker> {
  // Loaded with the first image, not at start: a server whose readers attach none never pays for it.
  const { default: Tesseract } = await import('tesseract.js');
  const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: englishLanguageDirectory,
    gzip: true,
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job inside its message listener, which kills the process.
    // The job's promise still rejects with the error, which is where it is handled.
    errorHandler: () => {},
  });
  const died = threadDeath(worker);
  return {
    async recognize(bytes) {
      try {
        const result = await Promise.race([worker.recognize(bytes), died]);
        return result.data.text;
      } catch (error) {
        if (error instanceof UnreadableImage) throw error;
        throw new UnreadableImage(describe(error), false, { cause: error });
      }
    },
    terminate: async () => {
      await worker.terminate();
    },
  };
}

/**
 * tesseract.js listens to its thread with `onerror`, which a Node worker_threads Worker never calls: a crash inside
 * the engine (e.g. out of WebAssembly memory) would be an unhandled 'error' event that ends the server. Listening
 * here turns it into a rejected recognition instead.
 */
function threadDeath(worker: Tesseract.Worker): Promise<never> {
  const thread = (worker as unknown as { worker?: ThreadWorker }).worker;
  const death = new Promise<never>((_resolve, reject) => {
    thread?.on('error', (error) => reject(new UnreadableImage(`the OCR engine failed: ${describe(error)}`, true)));
    thread?.on('exit', (code) => reject(new UnreadableImage(`the OCR engine stopped (exit code ${code})`, true)));
  });
  // Stopping an idle engine ends its thread too; that is no one's unhandled rejection.
  death.catch(() => {});
  return death;
}

const describe = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/^Error: /, '').trim() || 'unknown error';
