import type { AllowedImageType } from '@acme/contract';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** How many bytes from a file's start `imageTypeOf` needs. */
export const signatureBytes = 12;

/**
 * The image type a file's first bytes say it is (PNG, JPEG, GIF or WebP: the types the server reads), or null. The
 * server checks the same signatures (server/src/copilot/images.ts); checking here tells the reader while the file is
 * still in the composer, instead of after sending, and sends the bytes under the type they really have.
 */
export function imageTypeOf(bytes: Uint8Array): AllowedImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}
