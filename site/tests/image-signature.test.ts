import { describe, expect, it } from 'vitest';
import { imageTypeOf } from '../src/components/Copilot/runtime/image-signature';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)));

describe('imageTypeOf', () => {
  it.each([
    ['a PNG', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]), 'image/png'],
    ['a JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['a GIF87a', bytes('GIF87a'), 'image/gif'],
    ['a GIF89a', bytes('GIF89a'), 'image/gif'],
    ['a WebP', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'image/webp'],
  ])('knows %s by its first bytes', (_name, file, type) => {
    expect(imageTypeOf(file)).toBe(type);
  });

  it.each([
    ['text named .png', bytes('not an image')],
    ['a PDF', bytes('%PDF-1.4')],
    ['an empty file', bytes()],
    ['a PNG cut after three bytes', bytes([0x89], 'PN')],
    ['a RIFF that is not WebP (a WAV)', bytes('RIFF', [1, 2, 3, 4], 'WAVE')],
    ['an SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('refuses %s', (_name, file) => {
    expect(imageTypeOf(file)).toBeNull();
  });
});
