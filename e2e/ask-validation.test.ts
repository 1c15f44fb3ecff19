import { describe, expect } from 'vitest';
import { test } from './ask-fixtures';

/** POST /api/askAi refuses bad input with a 400 (or 413, 415) that says what is wrong, in the one error shape. */

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const image = (overrides: Record<string, unknown> = {}) => ({
  type: 'image',
  contentType: 'image/png',
  content: png.toString('base64'),
  ...overrides,
});

describe('validation: each bad input gets a 400 that says what is wrong', () => {
  test.for<[string, unknown, RegExp]>([
    [
      'a system message',
      { messages: [{ role: 'system', content: [{ type: 'text', text: 'x' }], attachments: [] }] },
      /role/,
    ],
    ['no messages', { messages: [] }, /must not be empty/],
    ['an empty question', { messages: [question('  \n ')] }, /the question is empty/],
    ['an answer id of the caller (the server makes ids)', { messages: [question('hi')], answerId: 'x' }, /answerId/],
    ['51 messages', { messages: Array.from({ length: 51 }, () => question('hi')) }, /at most 50 messages/],
    ['too much text', { messages: [question('x'.repeat(32_001))] }, /32000 characters/],
    ['an unknown field', { messages: [question('hi')], model: 'gpt-9' }, /model/],
    [
      'an unknown part type',
      { messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }], attachments: [] }] },
      /content/,
    ],
    [
      'five images',
      { messages: [{ ...question('see'), attachments: [1, 2, 3, 4, 5].map(() => image()) }] },
      /at most 4 images/,
    ],
    [
      'a document attachment',
      {
        messages: [
          {
            ...question('see'),
            attachments: [{ type: 'document', contentType: 'application/pdf', content: 'JVBERg==' }],
          },
        ],
      },
      /attachments/,
    ],
    [
      'an SVG',
      { messages: [{ ...question('see'), attachments: [image({ contentType: 'image/svg+xml' })] }] },
      /not accepted/,
    ],
    [
      'bytes that are not the declared type',
      { messages: [{ ...question('see'), attachments: [image({ contentType: 'image/gif' })] }] },
      /not a GIF/,
    ],
    [
      'a data-URL prefix',
      {
        messages: [
          { ...question('see'), attachments: [image({ content: `data:image/png;base64,${png.toString('base64')}` })] },
        ],
      },
      /plain base64/,
    ],
    [
      'an image one byte over 5 MB',
      {
        messages: [
          {
            ...question('see'),
            attachments: [
              image({ content: Buffer.concat([png, Buffer.alloc(5_242_880 - png.length + 1)]).toString('base64') }),
            ],
          },
        ],
      },
      /at most 5 MB/,
    ],
    [
      'base64 broken by line breaks',
      { messages: [{ ...question('see'), attachments: [image({ content: `${png.toString('base64')}\nAAAA` })] }] },
      /base64/,
    ],
    [
      'an earlier message with something that is no image',
      {
        messages: [
          { ...question('see this'), attachments: [image({ contentType: 'application/x-evil', content: '!!!' })] },
          { role: 'assistant', content: [{ type: 'text', text: 'I see.' }], attachments: [] },
          question('and now?'),
        ],
      },
      /messages\.0\.attachments\.0/,
    ],
    [
      'an assistant message last',
      { messages: [question('hi'), { role: 'assistant', content: [{ type: 'text', text: 'yo' }], attachments: [] }] },
      /last message/,
    ],
  ])('%s', async ([, body, message], { copilot }) => {
    const response = await copilot.ask(body);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { message: string } }).error;
    expect(error.message).toMatch(message);
  });

  test.for<[string, string, string, number, RegExp]>([
    ['a body that is not JSON', 'application/json', '{"messages": [', 400, /not valid JSON/],
    ['an empty body', 'application/json', '', 400, /empty/],
    ['a form instead of JSON', 'application/x-www-form-urlencoded', 'messages=hi', 415, /as JSON/],
    ['a body over 32 MB', 'application/json', `{"messages":"${'x'.repeat(32 * 1024 * 1024)}"}`, 413, /too large/],
  ])(
    'refuses %s in the same error shape',
    async ([, contentType, body, status, message], { server, sessionCookie }) => {
      const response = await fetch(`${server.baseUrl}/api/askAi`, {
        method: 'POST',
        headers: { 'content-type': contentType, origin: server.baseUrl, cookie: sessionCookie },
        body,
      });
      expect(response.status).toBe(status);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('bad_request:ask');
      expect(error.message).toMatch(message);
    },
  );
});
