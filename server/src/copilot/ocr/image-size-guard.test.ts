import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { controllableEngines } from '../../../test-support/ocr-engines.js';
import { checkImage } from '../images.js';
import { sniffImageFormats } from './image-format.js';
import { measureForEngine } from './image-size-guard.js';
import { createImageTextReader } from './image-text-reader.js';

const fixture = (name: string) => readFile(new URL(`../../../test-support/fixtures/${name}`, import.meta.url));
const files = { png: 'npm-e401-terminal.png', jpeg: 'npm-e401-terminal.jpg', gif: 'npm-e401-terminal.gif' } as const;
const formats = ['png', 'jpeg', 'gif', 'webp'] as const;
type Format = (typeof formats)[number];

/** Each format's signature, where its sniffing looks (the engine's for JPEG, PNG, GIF; the loosest for WebP). */
const signatureOf: Record<Format, { at: number; bytes: Buffer }> = {
  png: { at: 0, bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  jpeg: { at: 0, bytes: Buffer.from([0xff, 0xd8]) },
  gif: { at: 0, bytes: Buffer.from('GIF89a', 'latin1') },
  webp: { at: 8, bytes: Buffer.from('WEBP', 'latin1') },
};

const real = async (format: Format) => fixture(format === 'webp' ? 'npm-e401-terminal.webp' : files[format]);

/** A real image of `carrier` with `disguise`'s signature written where that format's sniffing looks. */
async function disguised(carrier: Format, disguise: Format) {
  const bytes = Buffer.from(await real(carrier));
  signatureOf[disguise].bytes.copy(bytes, signatureOf[disguise].at);
  return bytes;
}

const pairs = formats.flatMap((carrier) =>
  formats.filter((disguise) => disguise !== carrier).map((disguise) => [carrier, disguise] as const),
);

/** A 30000 x 30000 JPEG whose APP1 segment puts `WEBP` at byte 8 and a 1 x 1 VP8X canvas after it. */
function jpegDressedAsTinyWebp() {
  const app1Payload = Buffer.from([
    ...Buffer.from('RI', 'latin1'), // bytes 6-7
    ...Buffer.from('WEBPVP8X', 'latin1'), // bytes 8-15
    10,
    0,
    0,
    0, // chunk size
    0,
    0,
    0,
    0, // flags and reserved
    0,
    0,
    0,
    0,
    0,
    0, // canvas width - 1 and height - 1: 1 x 1
  ]);
  const app1 = [0xff, 0xe1, 0x00, app1Payload.length + 2, ...app1Payload];
  const frame = [
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    30000 >> 8,
    30000 & 0xff,
    30000 >> 8,
    30000 & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ];
  const scan = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00];
  return Buffer.from([0xff, 0xd8, ...app1, ...frame, ...scan, ...Buffer.alloc(4096), 0xff, 0xd9]);
}

describe('the OCR size guard measures the format the engine decodes', () => {
  it.each(pairs)(
    'refusesDisguisedImage: a %s carrying the signature of a %s is never handed to the engine, whichever it is sent as',
    async (carrier, disguise) => {
      const bytes = await disguised(carrier, disguise);
      const engines = controllableEngines();
      const reader = createImageTextReader({ startWorker: engines.startWorker });
      for (const declared of [carrier, disguise]) {
        const result = await reader.read({ contentType: `image/${declared}`, bytes });
        expect(result.text).toBe('');
        expect(result.problem?.code).toMatch(/^(disguised_image|unreadable_image)$/);
      }
      expect(engines.started).toHaveLength(0);
      await reader.close();
    },
  );

  it.each(pairs)(
    'refusesImageWithTwoSignatures at upload: a %s carrying the signature of a %s',
    async (carrier, disguise) => {
      const bytes = await disguised(carrier, disguise);
      const sniffed = sniffImageFormats(bytes);
      for (const declared of [carrier, disguise]) {
        const attachment = { contentType: `image/${declared}`, content: bytes.toString('base64') };
        // Two signatures: refused at upload with a 400. One: it is the other format, which the declared type is not.
        if (sniffed.length > 1 || !sniffed.includes(declared)) {
          expect(() => checkImage(attachment, 'image')).toThrow(/the bytes are/);
        }
      }
    },
  );

  it('refusesJpegDressedAsTinyWebp before the engine sees it, at upload and in the reader', async () => {
    const bytes = jpegDressedAsTinyWebp();
    expect(sniffImageFormats(bytes)).toEqual(['jpeg', 'webp']);
    expect(() => checkImage({ contentType: 'image/jpeg', content: bytes.toString('base64') }, 'image')).toThrow(
      'image: the bytes are a JPEG and a WebP image at once; send the image as saved',
    );
    const engines = controllableEngines();
    const reader = createImageTextReader({ startWorker: engines.startWorker });
    const result = await reader.read({ contentType: 'image/jpeg', bytes });
    expect(result).toEqual({
      text: '',
      problem: {
        code: 'disguised_image',
        message:
          'The image was sent as a JPEG image but its bytes are a JPEG and a WebP image at once; it is not read.',
      },
    });
    expect(engines.started).toHaveLength(0);
    await reader.close();
  });

  it('measures the real JPEG frame of the same file once its WebP disguise is gone', () => {
    const bytes = jpegDressedAsTinyWebp();
    bytes.write('XXXX', 8, 'latin1');
    expect(measureForEngine({ contentType: 'image/jpeg', bytes }, 36_000_000)).toEqual({
      problem: { code: 'image_too_large', message: expect.stringContaining('30000 x 30000 pixels') },
    });
  });

  it.each(formats)('measures an undisguised %s as the engine decodes it', async (format) => {
    expect(measureForEngine({ contentType: `image/${format}`, bytes: await real(format) }, 36_000_000)).toEqual({
      // A GIF's decoder holds each of its images (here one), not its logical screen.
      pixels: 900 * 220,
    });
  });

  it('refusesDeclaredTypeOtherThanTheBytes: a real PNG sent as a GIF', async () => {
    const result = measureForEngine({ contentType: 'image/gif', bytes: await real('png') }, 36_000_000);
    expect(result.problem?.code).toBe('disguised_image');
  });
});
