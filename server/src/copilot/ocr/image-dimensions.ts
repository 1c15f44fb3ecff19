export type ImageDimensions = { width: number; height: number };

/**
 * Width and height from the header of a PNG, JPEG, GIF or WebP file, without decoding it; undefined when the header
 * is not one we know. A 5 MB PNG of one flat colour can claim 20000 x 20000 pixels, which costs the OCR engine
 * seconds and more than a gigabyte to decode, so the reader checks the size first.
 */
export function readImageDimensions(bytes: Buffer): ImageDimensions | undefined {
  try {
    if (bytes.subarray(1, 4).toString('latin1') === 'PNG') {
      return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
    }
    if (bytes.subarray(0, 3).toString('latin1') === 'GIF') {
      return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
    }
    if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return webpDimensions(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegDimensions(bytes);
  } catch {
    // A header cut short reads past the end; the engine will say it cannot read the image.
  }
  return undefined;
}

function webpDimensions(bytes: Buffer): ImageDimensions | undefined {
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker (C0-CF except C4 DHT, C8 JPG and CC DAC). */
function jpegDimensions(bytes: Buffer): ImageDimensions | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}
