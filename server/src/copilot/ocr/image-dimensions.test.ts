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
    expect(readImageDimensions(await fixture(name))).toMatchObject({ width, height });
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

/** A baseline frame header (SOF0) for one grey component of this size. */
const startOfFrame = (width: number, height: number) => [
  0xff,
  0xc0,
  0x00,
  0x0b,
  0x08,
  height >> 8,
  height & 0xff,
  width >> 8,
  width & 0xff,
  0x01,
  0x01,
  0x11,
  0x00,
];
const startOfScan = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00];

describe('readImageDimensions reads JPEG segments as libjpeg does', () => {
  it('finds the frame behind standalone markers, which have no length', () => {
    // RST0 then two bytes that a walker expecting a length would take for one and jump over the real frame with.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd0, 0x00, 0x10, ...startOfFrame(19000, 19000), ...startOfScan]);
    expect(readImageDimensions(jpeg)).toEqual({ width: 19000, height: 19000 });
    const temporary = Buffer.from([0xff, 0xd8, 0xff, 0x01, 0x00, 0x20, ...startOfFrame(8000, 6000), ...startOfScan]);
    expect(readImageDimensions(temporary)).toEqual({ width: 8000, height: 6000 });
  });

  it('skips fill bytes and stray bytes between segments', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0x12, 0x34, 0xff, 0xff, ...startOfFrame(640, 480), 0x00, ...startOfScan]);
    expect(readImageDimensions(jpeg)).toEqual({ width: 640, height: 480 });
  });

  it('refuses a second frame header, a second start of image, a length past the end and an empty height', () => {
    const twoFrames = [0xff, 0xd8, ...startOfFrame(19000, 19000), ...startOfFrame(1, 1), ...startOfScan];
    expect(readImageDimensions(Buffer.from(twoFrames))).toBeUndefined();
    const twoStarts = [0xff, 0xd8, 0xff, 0xd8, ...startOfFrame(10, 10), ...startOfScan];
    expect(readImageDimensions(Buffer.from(twoStarts))).toBeUndefined();
    const pastTheEnd = [0xff, 0xd8, 0xff, 0xe0, 0x40, 0x00, ...startOfFrame(10, 10)];
    expect(readImageDimensions(Buffer.from(pastTheEnd))).toBeUndefined();
    expect(readImageDimensions(Buffer.from([0xff, 0xd8, ...startOfFrame(100, 0), ...startOfScan]))).toBeUndefined();
  });
});

/** A GIF: a logical screen of this size, then one image descriptor per frame with a byte of image data each. */
function gif(screen: [number, number], frames: Array<[number, number]>) {
  const word = (value: number) => [value & 0xff, value >> 8];
  const header = [...Buffer.from('GIF89a', 'latin1'), ...word(screen[0]), ...word(screen[1]), 0x00, 0x00, 0x00];
  const images = frames.flatMap(([width, height]) => [
    0x21,
    0xf9,
    0x04,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00, // a graphic control extension
    0x2c,
    ...word(0),
    ...word(0),
    ...word(width),
    ...word(height),
    0x00,
    0x02,
    0x01,
    0x00,
    0x00,
  ]);
  return Buffer.from([...header, ...images, 0x3b]);
}

describe('readImageDimensions reads every image of a GIF', () => {
  it('takes the largest image, not the logical screen', () => {
    expect(readImageDimensions(gif([1, 1], [[19000, 19000]]))).toMatchObject({ width: 19000, height: 19000 });
  });

  it('counts the pixels of all images together, as the decoder holds them all', () => {
    const dimensions = readImageDimensions(gif([1000, 1000], Array(50).fill([1000, 1000])));
    expect(dimensions).toMatchObject({ width: 1000, height: 1000, pixels: 50_000_000 });
  });

  it('counts a single frame once: the logical screen is no image the decoder holds', () => {
    // 5000 x 5000 is 25 megapixels, under the 36 the reader allows; counting the screen as well made it 50.
    expect(readImageDimensions(gif([5000, 5000], [[5000, 5000]]))).toEqual({
      width: 5000,
      height: 5000,
      pixels: 25_000_000,
    });
  });

  it('still counts every frame of a GIF bomb: twenty frames of 5000 x 5000 are 500 megapixels', () => {
    expect(readImageDimensions(gif([5000, 5000], Array(20).fill([5000, 5000])))).toMatchObject({
      pixels: 500_000_000,
    });
  });

  it('sizes a GIF by its frames, whatever its logical screen claims', () => {
    expect(readImageDimensions(gif([60000, 60000], [[10, 20]]))).toEqual({ width: 10, height: 20, pixels: 200 });
  });

  it('refuses a GIF with no image or an unknown block', () => {
    expect(readImageDimensions(gif([100, 100], []))).toBeUndefined();
    const unknownBlock = Buffer.concat([gif([10, 10], [[10, 10]]).subarray(0, 13), Buffer.from([0x99, 0x3b])]);
    expect(readImageDimensions(unknownBlock)).toBeUndefined();
  });
});

function uint32le(value: number): number[] {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value >>> 0);
  return [...bytes];
}
