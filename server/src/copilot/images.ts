import {
  type AllowedImageType,
  ApiError,
  allowedImageTypes,
  type ErrorDetail,
  errorDetails,
  maxImageBase64Characters,
  maxImageBytes,
} from '@acme/contract';
import { describeFormats, sniffImageFormats } from './ocr/image-format.js';

export type CheckedImage = { contentType: AllowedImageType; bytes: Buffer };

/** File signatures of the image types we accept; a declared type must match the bytes. */
const signatures: Record<AllowedImageType, (bytes: Buffer) => boolean> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) =>
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Linear-time check (a grouped pattern overflows the regex engine's stack on a 7 MB string). */
const isStrictBase64 = (text: string) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

/** A 400 that says what is wrong with the image, as a script needs it (the widget shows the registry's words). */
const refused = (detail: ErrorDetail) => new ApiError('bad_request:attachment', detail);

/** Decodes and checks one attachment; throws a bad_request:attachment ApiError naming what is wrong. */
export function checkImage(attachment: { contentType: string; content: string }, label: string): CheckedImage {
  const contentType = attachment.contentType.toLowerCase() as CheckedImage['contentType'];
  if (!allowedImageTypes.includes(contentType)) {
    throw refused(errorDetails.attachment.notAccepted(label, attachment.contentType));
  }
  if (attachment.content.length > maxImageBase64Characters + 4) {
    throw refused(errorDetails.attachment.tooLarge(label));
  }
  if (!isStrictBase64(attachment.content)) {
    throw refused(errorDetails.attachment.notBase64(label));
  }
  const bytes = Buffer.from(attachment.content, 'base64');
  if (bytes.length === 0) throw refused(errorDetails.attachment.empty(label));
  if (bytes.length > maxImageBytes) throw refused(errorDetails.attachment.tooLarge(label));
  if (!signatures[contentType](bytes)) {
    throw refused(errorDetails.attachment.notThatFormat(label, contentType.slice(6).toUpperCase()));
  }
  // No image program writes one; a file read as one format and decoded as another is built to get past a size check.
  const formats = sniffImageFormats(bytes);
  if (formats.length > 1) {
    throw refused(errorDetails.attachment.severalFormats(label, describeFormats(formats)));
  }
  return { contentType, bytes };
}

/** Checks every image of a question; a bad one is a 400 that names it (`label.index`). */
export function checkImages(attachments: readonly { contentType: string; content: string }[], label: string) {
  return attachments.map((attachment, index) => checkImage(attachment, `${label}.${index}`));
}
