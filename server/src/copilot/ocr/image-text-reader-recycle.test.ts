import { describe, expect, it } from 'vitest';
import { controllableEngines, image, settle } from '../../../test-support/ocr-engines.js';
import { createImageTextReader } from './image-text-reader.js';

/** A PNG header of this size with nothing after it: enough for the size guard; the fake engine never reads it. */
function pngOfSize(width: number, height: number) {
  const bytes = Buffer.from(image.bytes);
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return { contentType: 'image/png', bytes };
}

describe('the engine is recycled so that its memory returns', () => {
  it('stops the engine after an image past the recycling size, and starts a fresh one for the next', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker, recycleAbovePixels: 4_000_000 });
    const small = reader.read(pngOfSize(1920, 1080));
    await settle();
    engines.started[0]?.finish('small');
    await small;
    await settle();
    expect(engines.started[0]?.terminated).toBe(false);

    const large = reader.read(pngOfSize(3000, 2000));
    await settle();
    engines.started[0]?.finish('large');
    expect(await large).toEqual({ text: 'large' });
    await settle();
    expect(engines.started[0]?.terminated).toBe(true);

    const next = reader.read(pngOfSize(100, 100));
    await settle();
    engines.started[1]?.finish('next');
    expect(await next).toEqual({ text: 'next' });
    expect(engines.started).toHaveLength(2);
    await reader.close();
  });

  it('stops the engine when the process has grown past the resident limit after a read', async () => {
    const engines = controllableEngines();
    let resident = 300 * 1024 * 1024;
    const reader = createImageTextReader({
      startWorker: engines.startWorker,
      recycleAboveResidentBytes: 512 * 1024 * 1024,
      residentBytes: () => resident,
    });
    const first = reader.read(image);
    await settle();
    engines.started[0]?.finish('first');
    await first;
    await settle();
    expect(engines.started[0]?.terminated).toBe(false);

    resident = 900 * 1024 * 1024;
    const second = reader.read(image);
    await settle();
    engines.started[0]?.finish('second');
    await second;
    await settle();
    expect(engines.started[0]?.terminated).toBe(true);
    await reader.close();
  });

  it('stopsEngineAtItsPeak: a read that takes the process past the memory bound is stopped, not waited out', async () => {
    const engines = controllableEngines();
    let resident = 600 * 1024 * 1024;
    const reader = createImageTextReader({
      startWorker: engines.startWorker,
      stopAboveGrowthBytes: 1024 * 1024 * 1024,
      memoryCheckMs: 1,
      residentBytes: () => resident,
      timeoutMs: 3_600_000,
    });
    const bomb = reader.read(image);
    await settle();
    expect(engines.started[0]?.terminated).toBe(false);
    // The engine decodes something far larger than its header said; it never finishes on its own.
    resident = 1700 * 1024 * 1024;

    expect(await bomb).toEqual({
      text: '',
      problem: { code: 'image_too_large', message: expect.stringContaining('more than the 1024 MB of memory') },
    });
    expect(engines.started[0]?.terminated).toBe(true);

    resident = 600 * 1024 * 1024;
    const next = reader.read(image);
    await settle();
    engines.started[1]?.finish('next');
    expect(await next).toEqual({ text: 'next' });
    await reader.close();
  });
});
