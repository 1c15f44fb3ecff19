import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { controllableEngines, image, settle } from '../../../test-support/ocr-engines.js';
import { createImageTextReader, type ImageText, OcrError } from './image-text-reader.js';
import { startTesseractWorker, UnreadableImage } from './tesseract-worker.js';

const fixture = (name: string) => readFile(new URL(`../../../test-support/fixtures/${name}`, import.meta.url));
const png = async (name: string) => ({ contentType: 'image/png', bytes: await fixture(name) });

/** Rejects with the OcrError of this code, and nothing else. */
async function expectCode(promise: Promise<unknown>, code: OcrError['code']) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OcrError);
  expect((error as OcrError).code).toBe(code);
}

describe('reading screenshots with the real engine, offline', () => {
  const reader = createImageTextReader();
  afterAll(() => reader.close());

  it('reads the npm E401 error of a HiDPI terminal screenshot word for word', async () => {
    const { text, problem } = await reader.read(await png('npm-e401-terminal@2x.png'));

    expect(problem).toBeUndefined();
    expect(text).toContain('npm ERR! code E401');
    expect(text).toContain(
      'npm ERR! 401 Unauthorized - GET https://gitlab.com/api/v4/groups/acme-apps/-/packages/npm/',
    );
    expect(text).toContain('$ npm i -g @acme/cli');
    expect(text).not.toMatch(/\n\n/);
  });

  it.each([
    ['npm-e401-terminal.png', 'image/png'],
    ['npm-e401-terminal.jpg', 'image/jpeg'],
    ['npm-e401-terminal.webp', 'image/webp'],
    ['npm-e401-terminal.gif', 'image/gif'],
  ])('reads the words that find the answer from a normal-density %s', async (name, contentType) => {
    const { text, problem } = await reader.read({ contentType, bytes: await fixture(name) });

    expect(problem).toBeUndefined();
    for (const words of ['npm ERR!', 'Unauthorized', 'https://gitlab.com/api/v4/groups/acme-apps', '@acme/cli']) {
      expect(text).toContain(words);
    }
  });

  it('gives empty text and no problem for an empty terminal', async () => {
    expect(await reader.read(await png('blank-terminal.png'))).toEqual({ text: '' });
  });

  it('says an image it cannot decode is unreadable, and goes on reading the next one', async () => {
    const whole = await fixture('npm-e401-terminal.png');

    const broken = await reader.read({ contentType: 'image/png', bytes: whole.subarray(0, 2000) });

    expect(broken).toEqual({
      text: '',
      problem: { code: 'unreadable_image', message: expect.stringContaining('The PNG image could not be read') },
    });
    expect((await reader.read({ contentType: 'image/png', bytes: whole })).text).toContain('Unauthorized');
  });

  it('refuses an image whose size cannot be read, rather than decode it blind', async () => {
    const signatureOnly = (await fixture('npm-e401-terminal.png')).subarray(0, 12);

    const result = await reader.read({ contentType: 'image/png', bytes: signatureOnly });

    expect(result).toEqual({
      text: '',
      problem: { code: 'unreadable_image', message: 'The size of the image could not be read from its header.' },
    });
  });

  it('refuses to decode an image whose header claims 20000 x 20000 pixels', async () => {
    const header = Buffer.from(await fixture('npm-e401-terminal.png'));
    header.writeUInt32BE(20_000, 16);
    header.writeUInt32BE(20_000, 20);

    const result = await reader.read({ contentType: 'image/png', bytes: header });

    expect(result.text).toBe('');
    expect(result.problem).toEqual({ code: 'image_too_large', message: expect.stringContaining('20000 x 20000') });
  });
});

describe('reading screenshots: time limits, cancelling and closing with the real engine', () => {
  it('rejects with timeout:ocr when reading takes too long, then reads with a fresh engine', async () => {
    // A fresh engine reads the empty screenshot over ten times as fast as the HiDPI one (0.4 s against 10 s on a
    // loaded machine, 0.1 s against 0.8 s on a quiet one). The limit is twice the empty one's time on a fresh engine as
    // this machine reads it now, so a busy machine slows both sides of the limit alike.
    const engine = await startTesseractWorker();
    const started = performance.now();
    await engine.recognize(await fixture('blank-terminal.png'));
    const freshEmptyMs = performance.now() - started;
    await engine.terminate();
    const reader = createImageTextReader({ timeoutMs: Math.max(300, Math.round(2 * freshEmptyMs)) });
    try {
      await expectCode(reader.read(await png('npm-e401-terminal@2x.png')), 'timeout:ocr');
      expect((await reader.read(await png('blank-terminal.png'))).text).toBe('');
    } finally {
      await reader.close();
    }
  });

  it('rejects with aborted:ocr when the caller aborts, before or during the read', async () => {
    const reader = createImageTextReader();
    try {
      await expectCode(reader.read(await png('blank-terminal.png'), AbortSignal.abort()), 'aborted:ocr');
      await reader.read(await png('blank-terminal.png'));
      await expectCode(reader.read(await png('npm-e401-terminal@2x.png'), AbortSignal.timeout(50)), 'aborted:ocr');
      expect((await reader.read(await png('npm-e401-terminal.png'))).text).toContain('Unauthorized');
    } finally {
      await reader.close();
    }
  });

  it('rejects a running read with closed:ocr on close, and every read after it', async () => {
    let recognizing = () => {};
    const engineAtWork = new Promise<void>((resolve) => {
      recognizing = resolve;
    });
    // The real engine, telling the test when it begins on the image.
    const startWorker = async () => {
      const engine = await startTesseractWorker();
      return {
        ...engine,
        recognize: (bytes: Buffer) => {
          recognizing();
          return engine.recognize(bytes);
        },
      };
    };
    const reader = createImageTextReader({ startWorker });
    const running = reader.read(await png('npm-e401-terminal@2x.png'));
    await engineAtWork;

    const outcome = expectCode(running, 'closed:ocr');

    await reader.close();

    await outcome;
    await expectCode(reader.read(await png('blank-terminal.png')), 'closed:ocr');
  });
});

describe('the queue in front of the engines', () => {
  it('reads one image at a time per engine, in order, on one engine started on first use', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker });
    expect(engines.started).toHaveLength(0);
    const results: ImageText[] = [];

    const first = reader.read(image).then((text) => results.push(text));
    const second = reader.read(image).then((text) => results.push(text));
    await settle();
    engines.started[0]?.finish('first   line\n\nx');
    await first;
    await settle();
    engines.started[0]?.finish('second line');
    await second;

    expect(results).toEqual([{ text: 'first line' }, { text: 'second line' }]);
    expect(engines.started).toHaveLength(1);
    await reader.close();
  });

  it("lets readers take turns: one reader's many screenshots do not hold up another's", async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker });
    const answered: string[] = [];
    const readFor = (readerKey: string, name: string) =>
      reader.read(image, undefined, readerKey).then(({ text }) => answered.push(`${name} got ${text}`));
    const reads = [readFor('heavy', 'heavy 1'), readFor('heavy', 'heavy 2'), readFor('heavy', 'heavy 3')];
    await settle();
    reads.push(readFor('light', 'light'));
    for (const text of ['first', 'second', 'third', 'fourth']) {
      await settle();
      engines.started[0]?.finish(text);
      await settle();
    }
    await Promise.all(reads);
    expect(answered).toEqual(['heavy 1 got first', 'light got second', 'heavy 2 got third', 'heavy 3 got fourth']);
    await reader.close();
  });

  it('keeps the turns of readers whose screenshots come one after another, as a question sends them', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker, maxWaiting: 64 });
    const served: string[] = [];
    const question = async (readerKey: string, images: number) => {
      for (let count = 0; count < images; count += 1) {
        await reader.read(image, undefined, readerKey);
        served.push(readerKey);
      }
    };
    // d asks two questions at once, as ASK_CONCURRENT_PER_USER allows; x and y send six screenshots each.
    const asking = [question('x', 6), question('y', 6), question('d', 1), question('d', 1)];
    for (let read = 0; read < 14; read += 1) {
      await settle();
      engines.started[0]?.finish('text');
      await settle();
    }
    await Promise.all(asking);
    // d's second screenshot is read in d's next turn, not after everyone else's six.
    expect(served.slice(0, 6).filter((readerKey) => readerKey === 'd')).toHaveLength(2);
    await reader.close();
  });

  it('runs two reads at once with two engines', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker, workers: 2 });

    const reads = [reader.read(image), reader.read(image)];
    await settle();
    engines.started[1]?.finish('from the second engine');
    engines.started[0]?.finish('from the first engine');

    expect(await Promise.all(reads)).toEqual([{ text: 'from the first engine' }, { text: 'from the second engine' }]);
    await reader.close();
  });

  it('drops a waiting read that is aborted without disturbing the running one', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker });
    const controller = new AbortController();

    const running = reader.read(image);
    const waiting = reader.read(image, controller.signal);
    await settle();
    controller.abort();
    await expectCode(waiting, 'aborted:ocr');
    engines.started[0]?.finish('still read');

    expect(await running).toEqual({ text: 'still read' });
    expect(engines.started[0]?.terminated).toBe(false);
    await reader.close();
  });

  it('refuses new reads with busy:ocr while too many wait', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker, maxWaiting: 1 });

    const reads = [reader.read(image), reader.read(image)];
    await settle();

    await expectCode(reader.read(image), 'busy:ocr');
    await reader.close();
    await Promise.allSettled(reads);
  });

  it('replaces an engine that died on an image, and answers that image as unreadable', async () => {
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker });

    const dying = reader.read({ contentType: 'image/png', bytes: image.bytes });
    await settle();
    engines.started[0]?.finish(new UnreadableImage('the OCR engine stopped (exit code 1)', true));

    expect(await dying).toEqual({
      text: '',
      problem: {
        code: 'unreadable_image',
        message: 'The PNG image could not be read for text (the OCR engine stopped (exit code 1)).',
      },
    });
    expect(engines.started[0]?.terminated).toBe(true);
    const next = reader.read(image);
    await settle();
    engines.started[1]?.finish('fresh engine');
    expect(await next).toEqual({ text: 'fresh engine' });
    await reader.close();
  });

  it('rejects with unavailable:ocr when the engine cannot start, and tries again on the next read', async () => {
    let attempts = 0;
    const reader = createImageTextReader({
      startWorker: async () => {
        attempts++;
        throw new Error('eng.traineddata.gz: ENOENT');
      },
    });

    await expectCode(reader.read(image), 'unavailable:ocr');
    await expectCode(reader.read(image), 'unavailable:ocr');
    expect(attempts).toBe(2);
    await reader.close();
  });
});
