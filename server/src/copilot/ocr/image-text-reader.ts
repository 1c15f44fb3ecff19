import { type ImageInput, type ImageTextProblem, measureForEngine } from './image-size-guard.js';
import { defaultMaxOcrCharacters, normalizeOcrText } from './ocr-text.js';
import { createOcrTimePerReader, type OcrTimeUse, timeSpentProblem } from './ocr-time-per-reader.js';
import { type RecognizingWorker, startTesseractWorker, UnreadableImage } from './tesseract-worker.js';

export type { ImageInput, ImageTextProblem };

/** The text on one image, tidied; empty when there is none, with `problem` when the image could not be read. */
export type ImageText = { text: string; problem?: ImageTextProblem };

export type OcrErrorCode = 'timeout:ocr' | 'aborted:ocr' | 'busy:ocr' | 'unavailable:ocr' | 'closed:ocr';

/** Reading did not finish: too slow, cancelled, too many waiting, the engine would not start, or the reader closed. */
export class OcrError extends Error {
  override name = 'OcrError';
  constructor(
    readonly code: OcrErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export type ImageTextReader = {
  /**
   * Reads one image for `reader`. Rejects only with OcrError; an image it cannot read resolves with empty
   * text and a problem.
   */
  read(image: ImageInput, signal?: AbortSignal, reader?: string): Promise<ImageText>;
  /** Stops the engines; waiting and running reads reject with `closed:ocr`. */
  close(): Promise<void>;
};

export type ImageTextReaderOptions = {
  /** Engines run in parallel, each a thread using one core fully while it reads. Default 1. */
  workers?: number;
  /**
   * How long the engine may spend on one image. Waiting in line and starting the engine (about half a second, once)
   * are not counted: pass `read` a signal to bound the whole wait. Default 15 s.
   */
  timeoutMs?: number;
  /** Reads waiting for an engine beyond which new ones are refused with `busy:ocr`. Default 16. */
  maxWaiting?: number;
  /** Engine time a reader's screenshots may take in a sliding minute (ocr-time-per-reader.ts). Default 30 s. */
  perReaderPerMinuteMs?: number;
  /** The clock that engine time is measured on; tests replace it. Default performance.now. */
  now?: () => number;
  maxCharacters?: number;
  /** Larger images are not decoded (see image-dimensions.ts). Default 36 megapixels, e.g. 6000 x 6000. */
  maxPixels?: number;
  /**
   * The engine's WebAssembly memory grows to fit the largest image it has read and never shrinks: after an image
   * of more pixels than this, or when the process is larger than `recycleAboveResidentBytes` after a read, the engine
   * is stopped and the next read starts a fresh one (about half a second), so the memory returns. Defaults 8 megapixels
   * (a 4K screenshot) and 768 MB.
   */
  recycleAbovePixels?: number;
  recycleAboveResidentBytes?: number;
  /**
   * The bound on the engine's peak, not only on what it leaves: while it reads, the process's resident memory is
   * checked every `memoryCheckMs`, and once it has grown by more than this since the read began, the read is stopped
   * with its engine (which frees the memory) and the image is reported too large. A 36-megapixel image takes the
   * engine well under it. Defaults 1 GB and 100 ms.
   */
  stopAboveGrowthBytes?: number;
  memoryCheckMs?: number;
  /** The process's resident memory; tests replace it. Default process.memoryUsage.rss. */
  residentBytes?: () => number;
  /** Starts an engine; tests replace it. Default: a tesseract.js worker with English, from local files. */
  startWorker?: () => Promise<RecognizingWorker>;
};

type Job = {
  image: ImageInput;
  /** Whose question it is: the line is served by turns among readers, not first come first served. */
  reader: string;
  /** What decoding it costs (image-dimensions.ts). */
  pixels: number;
  resolve(text: ImageText): void;
  reject(error: OcrError): void;
  /** Settles when the job is given up (timeout, abort, close); the running read then stops its engine. */
  cancelled: Promise<OcrError | EngineOverMemory>;
  cancel(error: OcrError | EngineOverMemory): void;
};

type Slot = { worker: Promise<RecognizingWorker> | undefined; job: Job | undefined };

/** The engine grew past `stopAboveGrowthBytes` on this image: the image is too large, not the engine broken. */
class EngineOverMemory extends Error {}

/** The promise's outcome, or the job's cancellation error if that comes first. */
const unlessCancelled = <T>(job: Job, promise: Promise<T>): Promise<T> =>
  Promise.race([promise, job.cancelled.then((error) => Promise.reject(error))]);

/**
 * Reads the text of screenshot attachments with tesseract.js, offline. Engines start on the first read (about half
 * a second) and are reused; reads beyond the number of engines wait in line. An engine cannot be interrupted in the
 * middle of an image, so a read that times out or is aborted while running stops its engine, and the next read
 * starts a fresh one.
 */
export function createImageTextReader(options: ImageTextReaderOptions = {}): ImageTextReader {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxWaiting = options.maxWaiting ?? 16;
  const maxPixels = options.maxPixels ?? 36_000_000;
  const maxCharacters = options.maxCharacters ?? defaultMaxOcrCharacters;
  const startWorker = options.startWorker ?? startTesseractWorker;
  const recycleAbovePixels = options.recycleAbovePixels ?? 8_000_000;
  const recycleAboveResidentBytes = options.recycleAboveResidentBytes ?? 768 * 1024 * 1024;
  const residentBytes = options.residentBytes ?? (() => process.memoryUsage.rss());
  const stopAboveGrowthBytes = options.stopAboveGrowthBytes ?? 1024 * 1024 * 1024;
  const memoryCheckMs = options.memoryCheckMs ?? 100;
  const perReaderPerMinuteMs = options.perReaderPerMinuteMs ?? 30_000;
  const ocrTime = createOcrTimePerReader({ perMinuteMs: perReaderPerMinuteMs, now: options.now });
  const timeSpent = () => ({ text: '', problem: timeSpentProblem(perReaderPerMinuteMs) });
  const slots: Slot[] = Array.from({ length: Math.max(1, options.workers ?? 1) }, () => ({
    worker: undefined,
    job: undefined,
  }));
  const waiting: Job[] = [];
  /**
   * When each reader was last given an engine (a count of dispatches). A reader is forgotten only once everyone
   * waiting was served after them: coming back, they would be first anyway. A question's screenshots are read one
   * after another, so between two of them its reader has nothing waiting, and must not count as new.
   */
  const lastServed = new Map<string, number>();
  let dispatches = 0;
  let closed = false;
  const servedAt = (reader: string) => lastServed.get(reader) ?? -1;

  /**
   * The waiting read whose reader was served longest ago (never, first), the earliest of theirs: a reader sending
   * many large screenshots waits behind others rather than making everyone wait behind them.
   */
  function nextJob(): Job | undefined {
    let chosen = -1;
    for (const [index, job] of waiting.entries()) {
      const best = waiting[chosen];
      if (!best || servedAt(job.reader) < servedAt(best.reader)) chosen = index;
    }
    const [job] = chosen < 0 ? [] : waiting.splice(chosen, 1);
    if (!job) return undefined;
    dispatches += 1;
    lastServed.set(job.reader, dispatches);
    const oldestWaiting = Math.min(...waiting.map((other) => servedAt(other.reader)));
    for (const [reader, served] of lastServed) {
      const running = reader === job.reader || slots.some((slot) => slot.job?.reader === reader);
      if (served < oldestWaiting && !running) lastServed.delete(reader);
    }
    return job;
  }

  function dispatch() {
    for (const slot of slots) {
      let job = slot.job ? undefined : nextJob();
      // A reader whose earlier screenshots used up their minute while this one waited: answered without the engine.
      for (; job && ocrTime.leftFor(job.reader) <= 0; job = nextJob()) job.resolve(timeSpent());
      if (job) void run(slot, job);
    }
  }

  async function run(slot: Slot, job: Job) {
    slot.job = job;
    let timer: NodeJS.Timeout | undefined;
    let memoryWatch: NodeJS.Timeout | undefined;
    let use: OcrTimeUse | undefined;
    try {
      // Cancelled while the engine starts: the start goes on and the engine serves the next read.
      const engine = await unlessCancelled(job, engineOf(slot));
      // The engine's time is the reader's from here: at most what is left of their minute.
      use = ocrTime.start(job.reader, timeoutMs);
      const limit = use.allowedMs < timeoutMs ? "what was left of its reader's minute" : `${timeoutMs / 1000} s`;
      const tooSlow = `Reading the image took longer than ${limit}.`;
      timer = setTimeout(() => job.cancel(new OcrError('timeout:ocr', tooSlow)), use.allowedMs);
      const residentAtStart = residentBytes();
      memoryWatch = setInterval(() => {
        if (residentBytes() - residentAtStart > stopAboveGrowthBytes) job.cancel(new EngineOverMemory());
      }, memoryCheckMs);
      const text = await unlessCancelled(job, engine.recognize(job.image.bytes)).catch((error: unknown) => {
        // The engine cannot be interrupted in the middle of an image; only stopping its thread frees it.
        if (
          error instanceof OcrError ||
          error instanceof EngineOverMemory ||
          (error instanceof UnreadableImage && error.engineFailed)
        )
          stopEngine(slot);
        throw error;
      });
      job.resolve({ text: normalizeOcrText(text, maxCharacters) });
    } catch (error) {
      if (error instanceof EngineOverMemory) {
        const limit = Math.round(stopAboveGrowthBytes / 1024 / 1024);
        job.resolve({
          text: '',
          problem: {
            code: 'image_too_large',
            message: `Reading the image took more than the ${limit} MB of memory the engine may use; it was stopped.`,
          },
        });
      } else if (error instanceof UnreadableImage) {
        const type = job.image.contentType.replace(/^image\//, '').toUpperCase();
        job.resolve({
          text: '',
          problem: {
            code: 'unreadable_image',
            message: `The ${type} image could not be read for text (${error.message}).`,
          },
        });
      } else {
        job.reject(
          error instanceof OcrError ? error : new OcrError('unavailable:ocr', 'OCR failed.', { cause: error }),
        );
      }
    } finally {
      use?.ended();
      clearTimeout(timer);
      clearInterval(memoryWatch);
      if (job.pixels > recycleAbovePixels || residentBytes() > recycleAboveResidentBytes) stopEngine(slot);
      slot.job = undefined;
      if (!closed) dispatch();
    }
  }

  function engineOf(slot: Slot): Promise<RecognizingWorker> {
    slot.worker ??= startWorker().catch((error: unknown) => {
      slot.worker = undefined;
      throw new OcrError('unavailable:ocr', 'The OCR engine could not start.', { cause: error });
    });
    return slot.worker;
  }

  function stopEngine(slot: Slot) {
    const worker = slot.worker;
    slot.worker = undefined;
    void worker?.then((engine) => engine.terminate()).catch(() => {});
  }

  return {
    read(image, signal, reader = '') {
      if (closed) return Promise.reject(new OcrError('closed:ocr', 'The image reader is closed.'));
      if (signal?.aborted) return Promise.reject(new OcrError('aborted:ocr', 'Reading the image was cancelled.'));
      const measured = measureForEngine(image, maxPixels);
      if (measured.problem) return Promise.resolve({ text: '', problem: measured.problem });
      const pixels = measured.pixels;
      if (ocrTime.leftFor(reader) <= 0) return Promise.resolve(timeSpent());
      if (waiting.length >= maxWaiting) {
        return Promise.reject(new OcrError('busy:ocr', 'Too many images are waiting to be read; try again shortly.'));
      }
      return new Promise<ImageText>((resolve, reject) => {
        let cancel: (error: OcrError | EngineOverMemory) => void = () => {};
        const cancelled = new Promise<OcrError | EngineOverMemory>((settle) => {
          cancel = settle;
        });
        const onAbort = () => job.cancel(new OcrError('aborted:ocr', 'Reading the image was cancelled.'));
        const finish = () => signal?.removeEventListener('abort', onAbort);
        const job: Job = {
          image,
          reader,
          pixels,
          cancelled,
          resolve: (text) => {
            finish();
            resolve(text);
          },
          reject: (error) => {
            finish();
            reject(error);
          },
          cancel: (error) => {
            const queued = waiting.indexOf(job);
            // Only a running read is watched for memory, so a waiting one is only ever cancelled with an OcrError.
            if (queued >= 0 && error instanceof OcrError) {
              waiting.splice(queued, 1);
              job.reject(error);
            } else {
              cancel(error);
            }
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(job);
        dispatch();
      });
    },

    async close() {
      closed = true;
      const error = new OcrError('closed:ocr', 'The image reader is closed.');
      for (const job of waiting.splice(0)) job.reject(error);
      for (const slot of slots) slot.job?.cancel(error);
      const workers = slots.map((slot) => slot.worker);
      for (const slot of slots) slot.worker = undefined;
      await Promise.all(workers.map((worker) => worker?.then((engine) => engine.terminate()).catch(() => {})));
    },
  };
}
