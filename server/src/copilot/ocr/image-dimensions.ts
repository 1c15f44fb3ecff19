import { sniffImageFormats } from './image-format.js';

/** `pixels`, when given, is what decoding costs in all (a GIF's images together); else width x height. */
export type ImageDimensions = { width: number; height: number; pixels?: number };

/** What decoding the image will allocate, in pixels. */
export const pixelsToDecode = (dimensions: ImageDimensions) =>
  dimensions.pixels ?? dimensions.width * dimensions.height;

/**
 * Width and height from the header of a PNG, JPEG, GIF or WebP file, without decoding it, read from the format the
 * OCR engine will decode; undefined when the header is not one we know, or when the bytes carry the signatures of
 * two formats (image-format.ts): a JPEG with `WEBP` at byte 8 is decoded as a JPEG, so its WebP header, whatever
 * it claims, says nothing. A 5 MB PNG of one flat colour can claim 20000 x 20000 pixels, which costs the OCR engine
 * seconds and more than a gigabyte to decode, so the reader checks the size first.
 */
export function readImageDimensions(bytes: Buffer): ImageDimensions | undefined {
  const formats = sniffImageFormats(bytes);
  if (formats.length !== 1) return undefined;
  try {
    switch (formats[0]) {
      case 'png':
        // libpng refuses a file whose first chunk is not the image header.
        if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return undefined;
        return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
      case 'gif':
        return gifDimensions(bytes);
      case 'webp':
        return bytes.subarray(0, 4).toString('latin1') === 'RIFF' ? webpDimensions(bytes) : undefined;
      case 'jpeg':
        return jpegDimensions(bytes);
      default:
        return undefined;
    }
  } catch {
    // A header cut short reads past the end; the engine will say it cannot read the image.
  }
  return undefined;
}

/** A lossy key frame's start code, before its width and height. */
const vp8StartCode = Buffer.from([0x9d, 0x01, 0x2a]);

function webpDimensions(bytes: Buffer): ImageDimensions | undefined {
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') {
    if (!bytes.subarray(23, 26).equals(vp8StartCode)) return undefined;
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Markers that stand alone, with no length after them: TEM, RST0-RST7 (libjpeg's next_marker/read_markers). */
const standaloneJpegMarkers = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7]);
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

/**
 * The frame size the decoder will use, found as libjpeg finds it: bytes other than FF between segments are skipped
 * (it warns and goes on), FF fill bytes and stuffed FF00 too, standalone markers have no length, a length past the
 * end or a second SOI or frame header is refused (libjpeg stops with an error there; so do we, rather than guess).
 * Reading stops at the first scan, where the frame must be known.
 */
function jpegDimensions(bytes: Buffer): ImageDimensions | undefined {
  let frame: ImageDimensions | undefined;
  let offset = 2;
  while (offset < bytes.length) {
    while (offset < bytes.length && bytes[offset] !== 0xff) offset++;
    while (offset < bytes.length && bytes[offset] === 0xff) offset++;
    if (offset >= bytes.length) break;
    const marker = bytes[offset++] ?? 0;
    if (marker === 0x00 || standaloneJpegMarkers.has(marker)) continue;
    if (marker === 0xd8) return undefined;
    if (marker === 0xd9 || marker === 0xda) break;
    if (offset + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return undefined;
    if (isStartOfFrame(marker)) {
      if (frame || length < 8) return undefined;
      frame = { width: bytes.readUInt16BE(offset + 5), height: bytes.readUInt16BE(offset + 3) };
    }
    offset += length;
  }
  // A height of 0 means "given later" (DNL), which the decoder refuses too.
  return frame && frame.width > 0 && frame.height > 0 ? frame : undefined;
}

/**
 * A GIF's decoder (giflib, as the OCR engine uses it) reads every image of the file into memory, each as large as its
 * own descriptor says, whatever the logical screen claims: the size that counts is the largest of them all, and
 * the pixels all of them together. The logical screen (bytes 6-9) is no image: nothing is allocated for it, so it
 * is not counted (a single 5000 x 5000 frame is 25 megapixels, not 50); a bomb of many frames still adds them all.
 */
function gifDimensions(bytes: Buffer): ImageDimensions | undefined {
  let width = 0;
  let height = 0;
  let pixels = 0;
  const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  const skipSubBlocks = (from: number) => {
    let at = from;
    while (at < bytes.length && bytes[at] !== 0) at += 1 + (bytes[at] ?? 0);
    return at + 1;
  };
  let offset = 13 + colorTableBytes(bytes[10] ?? 0);
  let images = 0;
  while (offset < bytes.length) {
    const block = bytes[offset];
    if (block === 0x3b) break;
    if (block === 0x21) {
      offset = skipSubBlocks(offset + 2);
    } else if (block === 0x2c) {
      if (offset + 10 > bytes.length) return undefined;
      const imageWidth = bytes.readUInt16LE(offset + 5);
      const imageHeight = bytes.readUInt16LE(offset + 7);
      width = Math.max(width, imageWidth);
      height = Math.max(height, imageHeight);
      pixels += imageWidth * imageHeight;
      images++;
      // Descriptor, local colour table, LZW code size, then the image data in sub-blocks.
      offset = skipSubBlocks(offset + 10 + colorTableBytes(bytes[offset + 9] ?? 0) + 1);
    } else {
      return undefined;
    }
  }
  return images > 0 ? { width, height, pixels } : undefined;
}
