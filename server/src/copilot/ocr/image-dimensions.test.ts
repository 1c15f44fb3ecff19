import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readImageDimensions } from './image-dimensions.js';

const fixture = (name: string) => readFile(new URL(`../../../test-support/fixtures/${name}`, import.meta.url));

describe('readImageDimensions', () => {
  it.each([
    ['npm-e401-terminal.png', 900, 220],
    ['npm-e401-terminal@2x.png', 1800, 440],
    ['npm-e401-terminal.jpg', 900, 220],
    ['npm-e401-terminal.webp', 900, 220],
    ['npm-e401-terminal.gif', 900, 220],
  ])('reads the size of %s from its header', async (name, width, height) => {
    expect(readImageDimensions(await fixture(name))).toEqual({ width, height });
  });

  it('reads lossless and extended WebP headers', () => {
    const webp = (chunk: string, body: number[]) =>
      Buffer.from([...Buffer.from(`RIFF\0\0\0\0WEBP${chunk}\0\0\0\0`, 'latin1'), ...body]);
    // VP8L: signature byte, then width-1 and height-1 in 14 bits each.
    const lossless = webp('VP8L', [0x2f, ...uint32le((1799 & 0x3fff) | ((439 & 0x3fff) << 14))]);
    // VP8X: flags and reserved bytes, then width-1 and height-1 in 24 bits each.
    const extended = webp('VP8X', [0, 0, 0, 0, 0x1f, 0x4e, 0, 0x1f, 0x4e, 0]);
    expect(readImageDimensions(lossless)).toEqual({ width: 1800, height: 440 });
    expect(readImageDimensions(extended)).toEqual({ width: 20000, height: 20000 });
  });

  it('gives up on bytes it does not know or that stop short', async () => {
    expect(readImageDimensions(Buffer.from('not an image'))).toBeUndefined();
    expect(readImageDimensions((await fixture('npm-e401-terminal.png')).subarray(0, 12))).toBeUndefined();
    expect(readImageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeUndefined();
  });
});

function uint32le(value: number): number[] {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value >>> 0);
  return [...bytes];
}
