import { afterEach, describe, expect, it, vi } from 'vitest';
import { controllableEngines, image, settle } from '../../../test-support/ocr-engines.js';
import { createImageTextReader, OcrError } from './image-text-reader.js';

const timeSpent = {
  text: '',
  problem: { code: 'ocr_time_spent', message: expect.stringContaining('30 s within a minute') },
};

/** A reader of 30 s of engine time per reader a minute, on a clock the test moves, and its controllable engine. */
function readerOnClock() {
  const clock = { now: 0 };
  const engines = controllableEngines();
  const reader = createImageTextReader({
    startWorker: engines.startWorker,
    perReaderPerMinuteMs: 30_000,
    now: () => clock.now,
  });
  /** The engine works on the image it has for `ms`, then gives `text`. */
  const engineReads = async (ms: number, text: string) => {
    await settle();
    clock.now += ms;
    engines.started[0]?.finish(text);
    await settle();
  };
  return { clock, engines, reader, engineReads };
}

describe("each reader's OCR time over a sliding minute", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads no more of a reader's screenshots once they took the engine 30 s in a minute, and still reads another reader's", async () => {
    const { clock, reader, engineReads } = readerOnClock();
    for (const text of ['first', 'second']) {
      const read = reader.read(image, undefined, 'checkerboards');
      await engineReads(15_000, text);
      expect(await read).toEqual({ text });
    }

    const past = reader.read(image, undefined, 'checkerboards');
    const other = reader.read(image, undefined, 'someone else');
    await engineReads(500, 'for someone else');

    expect(await past).toEqual(timeSpent);
    expect(await other).toEqual({ text: 'for someone else' });

    // A minute after their reads ended, the reader's screenshots are read again.
    clock.now += 60_000;
    const later = reader.read(image, undefined, 'checkerboards');
    await engineReads(1_000, 'read again');
    expect(await later).toEqual({ text: 'read again' });
    await reader.close();
  });

  it("answers a reader's waiting screenshots without the engine once their minute is used up while they wait", async () => {
    const { engines, reader, engineReads } = readerOnClock();
    const outcomes: string[] = [];
    const readFor = (readerKey: string, name: string) =>
      reader
        .read(image, undefined, readerKey)
        .then(({ text, problem }) => outcomes.push(`${name}: ${problem?.code ?? text}`));
    const reads = [readFor('heavy', 'heavy 1'), readFor('heavy', 'heavy 2'), readFor('heavy', 'heavy 3')];
    await settle();
    reads.push(readFor('light', 'light'));

    // Readers take turns: heavy 1, light, heavy 2; heavy 3's turn comes once heavy has had 30 s.
    await engineReads(15_000, 'one');
    await engineReads(1_000, 'two');
    await engineReads(15_000, 'three');
    const waitingForEngine = await Promise.race([Promise.all(reads).then(() => false), settle().then(() => true)]);

    expect(waitingForEngine).toBe(false);
    expect(outcomes).toEqual(['heavy 1: one', 'light: two', 'heavy 2: three', 'heavy 3: ocr_time_spent']);
    expect(engines.started[0]?.terminated).toBe(false);
    await reader.close();
  });

  it("stops a read that runs past what is left of its reader's minute, and stops its engine", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { engines, reader, engineReads } = readerOnClock();
    const first = reader.read(image, undefined, 'checkerboards');
    await engineReads(20_000, 'first');
    expect(await first).toEqual({ text: 'first' });

    // 10 s are left: the engine, stuck on the next image, is stopped then rather than after 15 s.
    const stuck = reader.read(image, undefined, 'checkerboards').catch((error: unknown) => error);
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);

    const error = await stuck;
    expect(error).toBeInstanceOf(OcrError);
    expect((error as OcrError).code).toBe('timeout:ocr');
    expect((error as OcrError).message).toContain("what was left of its reader's minute");
    expect(engines.started[0]?.terminated).toBe(true);
    await reader.close();
  });
});
