import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkerboardPng, controllableEngines, image, settle } from '../../../test-support/ocr-engines.js';
import { createImageTextReader } from './image-text-reader.js';
import { readImageText } from './read-image-text.js';

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino(sink), lines };
}

const nobodyStops = new AbortController().signal;

describe("a question's screenshots share one OCR time budget", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a question of four images the engine never finishes when its budget runs out, not after four timeouts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const engines = controllableEngines();
    // Each image may take the engine 15 s: four of them would hold it, and the answer, for a minute.
    const reader = createImageTextReader({ startWorker: engines.startWorker, timeoutMs: 15_000 });
    const { log, lines } = recordingLog();
    let ended = false;
    const question = readImageText(
      reader,
      { images: [image, image, image, image], reader: 'slow screenshots' },
      nobodyStops,
      log,
      15_000,
    ).finally(() => {
      ended = true;
    });

    await vi.advanceTimersByTimeAsync(15_000);
    await settle();

    expect(ended).toBe(true);
    expect(await question).toBe('');
    // The engine stuck on the first image is stopped, and the three others never reach it.
    expect(engines.started[0]?.terminated).toBe(true);
    expect(engines.started).toHaveLength(1);
    expect(lines.join('')).toContain("3 screenshot(s) not read: the question's 15 s of OCR ran out");
    await reader.close();
  });

  it('ends a question of four fine checkerboards, each of which holds the real engine to its timeout, in its budget', async () => {
    // 63 KB each, 6000 x 6000 pixels: the real engine reads one for its whole 15 s.
    const board = { contentType: 'image/png', bytes: checkerboardPng(6000, 3) };
    const reader = createImageTextReader();
    const budgetMs = 2_000;
    try {
      const started = performance.now();

      const text = await readImageText(
        reader,
        { images: [board, board, board, board], reader: 'checkerboards' },
        nobodyStops,
        recordingLog().log,
        budgetMs,
      );

      expect(text).toBe('');
      // The budget, and the moment it takes to stop the engine; not four times 15 s.
      expect(performance.now() - started).toBeLessThan(budgetMs + 2_000);
    } finally {
      await reader.close();
    }
  });
});
