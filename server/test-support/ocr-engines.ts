/** Stand-ins for the OCR engine, for the tests of the queue and the engines' lifetime in front of it. */
import type { RecognizingWorker } from '../src/copilot/ocr/tesseract-worker.js';

/** An engine whose reads finish when the test says so. */
export function controllableEngines() {
  const started: Array<{ terminated: boolean; finish(text: string | Error): void }> = [];
  const startWorker = async (): Promise<RecognizingWorker> => {
    const pending: Array<(text: string | Error) => void> = [];
    const engine = {
      terminated: false,
      finish: (text: string | Error) => pending.shift()?.(text),
    };
    started.push(engine);
    return {
      recognize: () =>
        new Promise((resolve, reject) =>
          pending.push((text) => (typeof text === 'string' ? resolve(text) : reject(text))),
        ),
      terminate: async () => {
        engine.terminated = true;
      },
    };
  };
  return { started, startWorker };
}

/** Lets the reader's promises already under way run to their next wait; no time passes (the engines here use none). */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
/** A PNG header (1x1) with nothing after it: enough for the size guard; the fake engine never reads it. */
export const image = {
  contentType: 'image/png',
  bytes: Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000000000000', 'hex'),
};
