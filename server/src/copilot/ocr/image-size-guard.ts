import { pixelsToDecode, readImageDimensions } from './image-dimensions.js';
import { describeFormats, formatOfContentType, sniffImageFormats } from './image-format.js';

/** An attachment images.ts has already checked: an accepted type whose bytes match it, at most 5 MB. */
export type ImageInput = { contentType: string; bytes: Buffer };

/** Why an image gave no text although the reader worked: the caller can tell the reader of the chat. */
export type ImageTextProblem = {
  /** `ocr_time_spent`: the reader's screenshots already took the engine their time for this minute. */
  code: 'unreadable_image' | 'image_too_large' | 'disguised_image' | 'ocr_time_spent';
  message: string;
};

/**
 * What the engine would decode, measured before it sees a byte: the pixels of the one format the file is, or why it
 * is not read. A file whose declared type and signatures disagree, or that carries two formats' signatures, is refused:
 * measured as one format and decoded as another, its size says nothing (a JPEG dressed as a 1 x 1 WebP decoded at
 * 30000 x 30000). Without a readable size the engine could be handed a decompression bomb: refuse rather than hope.
 */
export function measureForEngine(
  image: ImageInput,
  maxPixels: number,
): { pixels: number; problem?: undefined } | { problem: ImageTextProblem } {
  const formats = sniffImageFormats(image.bytes);
  const declared = formatOfContentType(image.contentType);
  if (formats.length !== 1 || formats[0] !== declared) {
    const named = declared ? describeFormats([declared]) : `an image of type ${image.contentType}`;
    return {
      problem: {
        code: 'disguised_image',
        message: `The image was sent as ${named} but its bytes are ${describeFormats(formats)}; it is not read.`,
      },
    };
  }
  const dimensions = readImageDimensions(image.bytes);
  if (!dimensions) {
    return {
      problem: { code: 'unreadable_image', message: 'The size of the image could not be read from its header.' },
    };
  }
  const pixels = pixelsToDecode(dimensions);
  if (pixels <= maxPixels) return { pixels };
  const size =
    pixels === dimensions.width * dimensions.height
      ? `${dimensions.width} x ${dimensions.height} pixels`
      : `${Math.round(pixels / 1e6)} megapixels in all its frames`;
  return {
    problem: {
      code: 'image_too_large',
      message: `The image is ${size}; text is only read from images of at most ${Math.round(maxPixels / 1e6)} megapixels.`,
    },
  };
}
