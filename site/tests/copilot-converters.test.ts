import type { MessageDto } from '@acme/contract';
import type { ThreadMessage } from '@assistant-ui/react';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../src/components/Copilot/runtime/image-attachment-adapter';
import { fromStoredMessage, toMessageRepository } from '../src/components/Copilot/runtime/stored-messages';
import type { TurnSnapshot } from '../src/components/Copilot/runtime/turn-api';
import { answerParts } from '../src/components/Copilot/runtime/turn-message';
import { imageFromDataUrl } from '../src/components/Copilot/runtime/turn-model-adapter';
import { remarkCheckedLinks } from '../src/components/Copilot/view/checked-links';

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

const streamed: TurnSnapshot = {
  message: {
    role: 'assistant',
    status: { type: 'running' },
    parts: [
      { type: 'text', text: 'See [FAQs](/faqs) and [this](/nope).', status: { type: 'complete', reason: 'unknown' } },
      { type: 'source', sourceType: 'url', id: '/faqs', url: '/faqs', title: 'FAQs' },
    ],
    content: [],
    metadata: { unstable_state: null, unstable_data: [], unstable_annotations: [], steps: [], custom: {} },
  } as unknown as TurnSnapshot['message'],
  data: {
    turn: { threadId: 't1', questionId: 'q1', answerId: 'a1' },
    links: [
      { url: '/faqs', href: '/faqs' },
      { url: '/nope', href: null },
    ],
  },
};

describe('a streamed answer as the runtime shows it', () => {
  it("shows the model's handbook search, as streamed, before the text; other tools never", () => {
    const search = {
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'search_handbook',
      args: { query: 'ttl' },
      argsText: '{"query":"ttl"}',
      state: 'result',
      status: { type: 'complete', reason: 'unknown' },
      result: { results: [{ title: 'Firestore TTL', url: '/firestore-ttl' }] },
    };
    const withSearch = {
      ...streamed,
      message: {
        ...streamed.message,
        parts: [search, { ...search, toolCallId: 'call_2', toolName: 'answer_status' }, ...streamed.message.parts],
      },
    } as unknown as TurnSnapshot;

    expect(answerParts(withSearch).content.slice(0, 2)).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'search_handbook',
        args: { query: 'ttl' },
        argsText: '{"query":"ttl"}',
        result: { results: [{ title: 'Firestore TTL', url: '/firestore-ttl' }] },
      },
      { type: 'text', text: 'See [FAQs](/faqs) and [this](/nope).' },
    ]);
  });

  it('keeps its text and sources as parts, and the link verdicts as metadata for the renderer', () => {
    expect(answerParts(streamed)).toEqual({
      content: [
        { type: 'text', text: 'See [FAQs](/faqs) and [this](/nope).' },
        { type: 'source', sourceType: 'url', id: '/faqs', url: '/faqs', title: 'FAQs' },
      ],
      metadata: { custom: { links: { '/faqs': '/faqs', '/nope': null } } },
    });
  });
});

describe('links checked by the server, applied on the markdown tree', () => {
  const render = (markdown: string, verdicts: Record<string, string | null>) => {
    const tree = fromMarkdown(markdown);
    remarkCheckedLinks(verdicts, 'https://docs.acme.dev')()(tree);
    return toMarkdown(tree).trim();
  };

  it('turns a link that leads nowhere into its words and leads a good one where the server checked', () => {
    expect(render('[a](/faqs) and [b](/nope#x) and [c](faqs)', { '/nope#x': null, faqs: '/faqs' })).toBe(
      '[a](/faqs) and b and [c](/faqs)',
    );
  });

  it('drops a definition that leads nowhere, so its references read as text', () => {
    expect(render('Read [the guide][g].\n\n[g]: /nope', { '/nope': null })).toBe('Read the guide.');
  });

  it('leaves alone what the server did not judge: other sites and answers already checked', () => {
    expect(render('[MDN](https://developer.mozilla.org/) [x](/stored)', {})).toBe(
      '[MDN](https://developer.mozilla.org/) [x](/stored)',
    );
  });

  it('rejectsImageFromElsewhere: shows it as its description, as the server stores it, inline or by reference', () => {
    expect(
      render('![x](https://evil.example/x.png?leak=1) ![](//evil.example/z.png) ![y][p]\n\n[p]: data:image/png,AA', {}),
    ).toBe('\\[image: x]  \\[image: y]\n\n[p]: data:image/png,AA');
  });

  it('keeps an image of our site unless the server judged it to lead nowhere', () => {
    expect(
      render('![a](/faqs/) ![b](https://docs.acme.dev/faqs/) ![c](/img/none.png) ![d][g]\n\n[g]: /gone', {
        '/img/none.png': null,
        '/gone': null,
      }),
    ).toBe('![a](/faqs/) ![b](https://docs.acme.dev/faqs/) \\[image: c] \\[image: d]');
  });
});

describe('stored messages', () => {
  it('keeps an answer with its sources, status and feedback', () => {
    const message = fromStoredMessage(
      stored({
        id: 'a1',
        parentId: 'q1',
        role: 'assistant',
        content: [{ type: 'text', text: 'See the TTL page.' }],
        sources: [{ title: 'Firestore TTL › Indexes', url: '/firestore-ttl#indexes' }],
        feedback: { rating: 'negative', comment: 'too short', updatedAt: '2026-11-22T10:01:00.000Z' },
      }),
    );
    expect(message.metadata.submittedFeedback).toEqual({ type: 'negative' });
    expect(message.metadata.custom).toEqual({ feedbackComment: 'too short' });
    expect(message.content).toContainEqual(expect.objectContaining({ type: 'source', url: '/firestore-ttl#indexes' }));
  });

  it.each([
    ['incomplete', { type: 'incomplete', reason: 'cancelled' }, {}],
    ['error', { type: 'incomplete', reason: 'error' }, {}],
    ['running', { type: 'incomplete', reason: 'other' }, { stillWriting: true }],
  ] as const)('shows a stored %s answer with its run status', (status, runStatus, custom) => {
    const message = fromStoredMessage(stored({ id: 'a2', role: 'assistant', status }));
    expect(message.status).toMatchObject(runStatus);
    expect(message.metadata.custom).toEqual(custom);
  });

  it("brings back the model's search before the answer's text, as it was streamed", () => {
    const search = {
      type: 'tool-call' as const,
      toolCallId: 'call_1',
      toolName: 'search_handbook' as const,
      args: { query: 'ttl' },
      result: { results: [], error: 'The query has nothing to search by. Search with a few words.' },
    };
    const answer = stored({ role: 'assistant', content: [search, { type: 'text', text: 'Nothing found.' }] });

    expect(fromStoredMessage(answer).content).toEqual([
      { ...search, argsText: '{"query":"ttl"}' },
      { type: 'text', text: 'Nothing found.' },
    ]);
  });

  it('brings back only the metadata of an image, and heads the branch stored last', () => {
    const attachments = [{ name: 'shot.png', contentType: 'image/png', size: 8 }];
    const repository = toMessageRepository([stored({ id: 'q1', attachments }), stored({ id: 'q2' })]);
    expect(repository.headId).toBe('q2');
    const question = repository.messages[0]?.message as ThreadMessage;
    expect(question.attachments?.[0]).toMatchObject({ name: 'shot.png', contentType: 'image/png', content: [] });
  });

  it('heads the branch the reader switched to, down to its newest reply; the newest message when that is not stored', () => {
    // A question answered twice (a Refresh), then a follow-up under the first answer.
    const tree = [
      stored({ id: 'q1', role: 'user', parentId: null }),
      stored({ id: 'a1', role: 'assistant', parentId: 'q1' }),
      stored({ id: 'a2', role: 'assistant', parentId: 'q1' }),
      stored({ id: 'q2', role: 'user', parentId: 'a1' }),
      stored({ id: 'a3', role: 'assistant', parentId: 'q2' }),
    ];
    expect(toMessageRepository(tree, 'a2').headId).toBe('a2');
    expect(toMessageRepository(tree, 'a1').headId).toBe('a3');
    expect(toMessageRepository(tree, 'gone').headId).toBe('a3');
    expect(toMessageRepository(tree, null).headId).toBe('a3');
  });
});

describe('images and attachments', () => {
  it('splits a data URL into the media type and the bare base64 the server wants', () => {
    expect(imageFromDataUrl('data:image/png;base64,iVBORw0KGgo=', 'shot.png')).toEqual({
      type: 'image',
      contentType: 'image/png',
      content: 'iVBORw0KGgo=',
      name: 'shot.png',
    });
    expect(imageFromDataUrl('data:image/svg+xml,<svg/>')).toBeNull();
  });

  it.each([
    [{ name: 'a.png', type: 'image/png', size: 5_242_880 }, null],
    [{ name: 'big.jpg', type: 'image/jpeg', size: 5_242_881 }, /at most 5 MB/],
    [{ name: 'doc.pdf', type: 'application/pdf', size: 10 }, /not an image/],
    [{ name: 'logo.svg', type: 'image/svg+xml', size: 10 }, /PNG, JPEG, GIF or WebP/],
  ])('checks %j before upload', (file, expected) => {
    const refusal = refusalOf(file);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });
});
