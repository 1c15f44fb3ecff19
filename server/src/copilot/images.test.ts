import { maxImageBytes } from '@acme/contract';
import { describe, expect, it } from 'vitest';
import { checkImage } from './images.js';

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(32)]);
const webp = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.alloc(4),
  Buffer.from('WEBP', 'latin1'),
  Buffer.alloc(20),
]);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('checkImage', () => {
  it.each([
    ['image/png', png],
    ['image/jpeg', jpeg],
    ['image/gif', gif],
    ['image/webp', webp],
    ['IMAGE/PNG', png],
  ])('accepts a real %s', (contentType, bytes) => {
    expect(checkImage({ contentType, content: bytes.toString('base64') }, 'image').bytes.equals(bytes)).toBe(true);
  });

  it.each([
    ['rejectsSvgWithScript', { contentType: 'image/svg+xml', content: svg.toString('base64') }, /not accepted/],
    [
      'rejectsPdf',
      { contentType: 'application/pdf', content: Buffer.from('%PDF-1.7').toString('base64') },
      /not accepted/,
    ],
    ['rejectsEmptyType', { contentType: '', content: png.toString('base64') }, /not accepted/],
    ['rejectsPngDeclaredAsJpeg', { contentType: 'image/jpeg', content: png.toString('base64') }, /not a JPEG/],
    ['rejectsSvgDeclaredAsPng', { contentType: 'image/png', content: svg.toString('base64') }, /not a PNG/],
    [
      'rejectsDataUrlPrefix',
      { contentType: 'image/png', content: `data:image/png;base64,${png.toString('base64')}` },
      /plain base64/,
    ],
    [
      'rejectsBase64WithWhitespace',
      {
        contentType: 'image/png',
        content: `${png.toString('base64').slice(0, 8)}\n${png.toString('base64').slice(8)}`,
      },
      /plain base64/,
    ],
    ['rejectsBase64Url', { contentType: 'image/png', content: png.toString('base64url') }, /plain base64|not a PNG/],
    ['rejectsEmptyImage', { contentType: 'image/png', content: '' }, /empty/],
    [
      'rejectsOversizedImage',
      { contentType: 'image/png', content: Buffer.concat([png, Buffer.alloc(maxImageBytes)]).toString('base64') },
      /5 MB/,
    ],
  ])('%s', (_name, attachment, message) => {
    expect(() => checkImage(attachment, 'messages.0.attachments.0')).toThrow(
      expect.objectContaining({ code: 'bad_request:attachment', status: 400, message: expect.stringMatching(message) }),
    );
  });

  it('accepts an image of exactly 5 MB', () => {
    const bytes = Buffer.concat([png, Buffer.alloc(maxImageBytes - png.length)]);
    expect(checkImage({ contentType: 'image/png', content: bytes.toString('base64') }, 'image').bytes.length).toBe(
      maxImageBytes,
    );
  });
});
