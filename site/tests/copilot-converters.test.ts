import type { ThreadMessage } from '@assistant-ui/react';
import { describe, expect, it } from 'vitest';
import { parseEventBlock } from '../src/components/Copilot/runtime/ask-events';
import { imageFromDataUrl, toAskAiRequest } from '../src/components/Copilot/runtime/ask-request';
import { refusalOf } from '../src/components/Copilot/runtime/image-attachment-adapter';
import { fromStoredMessage, toStoredMessage } from '../src/components/Copilot/runtime/stored-messages';
import type { MessageDto } from '../src/components/Copilot/runtime/wire-types';

const user = (id: string, text: string, attachments: ThreadMessage['attachments'] = []): ThreadMessage => ({
  id,
  role: 'user',
  createdAt: new Date('2026-11-22T10:00:00Z'),
  content: [{ type: 'text', text }],
  attachments: attachments ?? [],
  metadata: { custom: {} },
});

const png = 'data:image/png;base64,iVBORw0KGgo=';
const withImage = user('q2', 'what is this error?', [
  {
    id: 'shot.png',
    type: 'image',
    name: 'shot.png',
    contentType: 'image/png',
    status: { type: 'complete' },
    content: [{ type: 'image', image: png }],
  },
]);

describe('askAi events', () => {
  it.each([
    ['event: start\ndata: {"id":"a1","mode":"docs-only"}', { type: 'start', id: 'a1', mode: 'docs-only' }],
    ['event: delta\ndata: {"text":"Hel"}', { type: 'delta', text: 'Hel' }],
    [
      'event: done\ndata: {"id":"a1","sources":[{"title":"T","url":"/t#x"}]}',
      { type: 'done', id: 'a1', sources: [{ title: 'T', url: '/t#x' }] },
    ],
    [
      'event: error\ndata: {"code":"internal:model","message":"The model failed."}',
      { type: 'error', code: 'internal:model', message: 'The model failed.' },
    ],
    [': keep-alive comment', null],
    ['event: ping\ndata: {}', null],
  ])('parses %j', (block, expected) => {
    expect(parseEventBlock(block)).toEqual(expected);
  });
});

describe('askAi request', () => {
  it('sends only the last question with its images, as bare base64 with the media type', () => {
    const request = toAskAiRequest([user('q1', 'first', withImage.attachments), withImage], '/firestore-ttl');
    expect(request.page).toBe('/firestore-ttl');
    expect(request.messages[0]?.attachments).toEqual([]);
    expect(request.messages[1]?.attachments).toEqual([
      { type: 'image', contentType: 'image/png', content: 'iVBORw0KGgo=', name: 'shot.png' },
    ]);
  });

  it('drops the oldest turns to stay within 32 000 characters and starts with a question', () => {
    const long = 'x'.repeat(20_000);
    const answer: ThreadMessage = { ...fromStoredMessage(stored({ id: 'a1', role: 'assistant' })) };
    const request = toAskAiRequest([user('q1', long), answer, user('q2', long)]);
    expect(request.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('rejects a data URL that is not base64', () => {
    expect(imageFromDataUrl('data:image/svg+xml,<svg/>')).toBeNull();
  });
});

function stored(overrides: Partial<MessageDto>): MessageDto {
  return {
    id: 'm1',
    threadId: 't1',
    parentId: null,
    role: 'user',
    content: [{ type: 'text', text: 'hello' }],
    attachments: [],
    sources: [],
    status: 'complete',
    createdAt: '2026-11-22T10:00:00.000Z',
    feedback: null,
    ...overrides,
  };
}

describe('stored messages, both ways', () => {
  it('keeps an answer with its sources, status and feedback', () => {
    const dto = stored({
      id: 'a1',
      parentId: 'q1',
      role: 'assistant',
      content: [{ type: 'text', text: 'See the TTL page.' }],
      sources: [{ title: 'Firestore TTL › Indexes', url: '/firestore-ttl#indexes' }],
      feedback: { rating: 'negative', comment: 'too short', updatedAt: '2026-11-22T10:01:00.000Z' },
    });
    const message = fromStoredMessage(dto);
    expect(message.metadata.submittedFeedback).toEqual({ type: 'negative' });
    expect(toStoredMessage('q1', message)).toEqual({
      id: 'a1',
      parentId: 'q1',
      role: 'assistant',
      content: [{ type: 'text', text: 'See the TTL page.' }],
      sources: [{ title: 'Firestore TTL › Indexes', url: '/firestore-ttl#indexes' }],
      status: 'complete',
    });
  });

  it.each([
    ['incomplete', { type: 'incomplete', reason: 'cancelled' }],
    ['error', { type: 'incomplete', reason: 'error' }],
  ] as const)('maps a stored %s answer to its run status and back', (status, runStatus) => {
    const message = fromStoredMessage(stored({ id: 'a2', role: 'assistant', status }));
    expect(message.status).toMatchObject(runStatus);
    expect(toStoredMessage(null, message).status).toBe(status);
  });

  it('stores only the metadata of an image, never the image', () => {
    const body = toStoredMessage(null, withImage);
    expect(body.attachments).toEqual([{ name: 'shot.png', contentType: 'image/png', size: 8 }]);
    expect(JSON.stringify(body)).not.toContain('base64');
    const back = fromStoredMessage(stored({ id: 'q2', attachments: body.attachments ?? [] }));
    expect(back.attachments?.[0]).toMatchObject({ name: 'shot.png', contentType: 'image/png', content: [] });
  });
});

describe('attachment checks before upload', () => {
  it.each([
    [{ name: 'a.png', type: 'image/png', size: 5_242_880 }, null],
    [{ name: 'big.jpg', type: 'image/jpeg', size: 5_242_881 }, /at most 5 MB/],
    [{ name: 'doc.pdf', type: 'application/pdf', size: 10 }, /not an image/],
    [{ name: 'logo.svg', type: 'image/svg+xml', size: 10 }, /PNG, JPEG, GIF or WebP/],
  ])('%j', (file, expected) => {
    const refusal = refusalOf(file);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });
});
