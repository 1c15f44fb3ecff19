/** Every format the OCR engine (tesseract.js over Leptonica, with libtiff, libjpeg, libpng, giflib, libwebp) decodes. */
export type ImageFormat =
  | 'bmp'
  | 'tiff'
  | 'pnm'
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'jp2'
  | 'webp'
  | 'postscript'
  | 'pdf'
  | 'spix';

const startsWith = (bytes: Buffer, signature: string | readonly number[], at = 0) => {
  const expected = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return bytes.subarray(at, at + expected.length).equals(expected);
};

/**
 * Each format's signature, in the order the engine tries them: tesseract.js's own BMP test (it converts those in
 * JavaScript first), then Leptonica's findFileFormatBuffer, which takes the FIRST that matches (JPEG's `FF D8` before
 * WebP's `WEBP` at byte 8, for one). Where Leptonica's versions differ we take the looser test (WebP: `WEBP` at byte
 * 8 with or without `RIFF` before it; PDF: `%PDF-` of any version), so that any file one of them could read two ways
 * is seen as both.
 */
const signatures: ReadonlyArray<readonly [ImageFormat, (bytes: Buffer) => boolean]> = [
  ['bmp', (bytes) => startsWith(bytes, 'BM') || startsWith(bytes, 'MB')],
  ['tiff', (bytes) => startsWith(bytes, 'II') || startsWith(bytes, 'MM')],
  ['pnm', (bytes) => bytes[0] === 0x50 && bytes[1] !== undefined && bytes[1] >= 0x31 && bytes[1] <= 0x37],
  ['jpeg', (bytes) => startsWith(bytes, [0xff, 0xd8])],
  ['png', (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['gif', (bytes) => startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')],
  [
    'jp2',
    (bytes) =>
      startsWith(bytes, [0xff, 0x4f, 0xff, 0x51]) ||
      startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]),
  ],
  ['webp', (bytes) => startsWith(bytes, 'WEBP', 8)],
  ['postscript', (bytes) => startsWith(bytes, '%!PS-Adobe')],
  ['pdf', (bytes) => startsWith(bytes, '%PDF-')],
  ['spix', (bytes) => startsWith(bytes, 'spix')],
];

/**
 * Every format whose signature the bytes carry, in the engine's order: the first is the one it will decode. A real
 * image carries exactly one; a file carrying two is built to be measured as one and decoded as the other.
 */
export const sniffImageFormats = (bytes: Buffer): ImageFormat[] =>
  signatures.filter(([, matches]) => matches(bytes)).map(([format]) => format);

/** The format a declared content type names (`image/jpeg` -> `jpeg`), if the engine decodes it. */
export function formatOfContentType(contentType: string): ImageFormat | undefined {
  const name = contentType.toLowerCase().replace(/^image\//, '');
  return signatures.find(([format]) => format === name)?.[0];
}

/** "a JPEG image", "a JPEG and a WebP image at once", for messages. */
export function describeFormats(formats: readonly ImageFormat[]): string {
  if (formats.length === 0) return 'no image format the OCR engine knows';
  const names = formats.map((format) => `a ${format === 'webp' ? 'WebP' : format.toUpperCase()}`).join(' and ');
  return formats.length > 1 ? `${names} image at once` : `${names} image`;
}
