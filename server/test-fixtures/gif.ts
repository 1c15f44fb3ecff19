/**
 * A minimal GIF encoder for test fixtures: 256 grey levels, LZW without compression. Emitting a clear code every
 * 200 pixels keeps the code table from growing past 9-bit codes, so every pixel is one literal code.
 */
const clearCode = 256;
const endCode = 257;
const pixelsPerClear = 200;

export function encodeGrayGif(width: number, height: number, gray: Uint8Array): Buffer {
  const bytes: number[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  const writeCode = (code: number) => {
    bitBuffer |= code << bitCount;
    bitCount += 9;
    while (bitCount >= 8) {
      bytes.push(bitBuffer & 0xff);
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  };
  for (let index = 0; index < gray.length; index++) {
    if (index % pixelsPerClear === 0) writeCode(clearCode);
    writeCode(gray[index] ?? 0);
  }
  writeCode(endCode);
  if (bitCount > 0) bytes.push(bitBuffer & 0xff);

  const subBlocks: number[] = [];
  for (let start = 0; start < bytes.length; start += 255) {
    const block = bytes.slice(start, start + 255);
    subBlocks.push(block.length, ...block);
  }
  const word = (value: number) => [value & 0xff, value >> 8];
  const palette = Array.from({ length: 256 }, (_, level) => [level, level, level]).flat();
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...word(width),
    ...word(height),
    0xf7, // global colour table of 2^(7+1) entries
    0,
    0,
    ...palette,
    0x2c,
    ...word(0),
    ...word(0),
    ...word(width),
    ...word(height),
    0,
    8, // LZW minimum code size
    ...subBlocks,
    0,
    0x3b,
  ]);
}
