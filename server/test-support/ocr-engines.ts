/** Stand-ins for the OCR engine, for the tests of the queue and the engines' lifetime in front of it. */
import { crc32, deflateSync } from 'node:zlib';
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

/**
 * A grey PNG of `size` x `size` pixels in squares of `cell` alternating black and white: a few dozen kilobytes that
 * keep the real engine busy for as long as it is let (a 6000 x 6000 board of 3-pixel squares runs to its timeout).
 */
export function checkerboardPng(size: number, cell: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(typed.length + 8);
    framed.writeUInt32BE(data.length, 0);
    typed.copy(framed, 4);
    framed.writeUInt32BE(crc32(typed), typed.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // 8 bits a pixel, colour type 0 (grey); compression, filter and interlace 0
  // Each row is its filter byte (none) then its pixels; a row is one of two patterns.
  const rowOf = (phase: number) =>
    Buffer.from([0, ...Array.from({ length: size }, (_, x) => ((Math.floor(x / cell) + phase) % 2 ? 255 : 0))]);
  const rows = [rowOf(0), rowOf(1)];
  const pixels = Buffer.concat(Array.from({ length: size }, (_, y) => rows[Math.floor(y / cell) % 2] as Buffer));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
