import type { MessageDto } from '@acme/contract';
import type {
  ChatModelAdapter,
  ChatModelRunOptions,
  ExportedMessageRepository,
  ThreadMessage,
  ThreadRuntime,
} from '@assistant-ui/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followingOtherTabs } from '../src/components/Copilot/runtime/asked-elsewhere';
import { noteOwnTurn, readVersionOf, showStored } from '../src/components/Copilot/runtime/conversation';

const at = '2026-01-01T00:00:00.000Z';
const thread = { id: 't1', title: 'Runners', status: 'regular' as const, createdAt: at, updatedAt: at };

const stored = (id: string, parentId: string | null, role: 'user' | 'assistant'): MessageDto => ({
  id,
  threadId: 't1',
  parentId,
  role,
  content: [{ type: 'text', text: id }],
  attachments: [],
  sources: [],
  status: 'complete',
  confidence: null,
  createdAt: at,
  feedback: null,
});

const local = (id: string, role: 'user' | 'assistant') =>
  ({
    id,
    role,
    content: [{ type: 'text', text: id }],
    attachments: [],
    metadata: { custom: {} },
  }) as unknown as ThreadMessage;

/** This tab read q1 and a1; another tab has since asked q2 and got a2. */
const seenHere = [stored('q1', null, 'user'), stored('a1', 'q1', 'assistant')];
const storedNow = [...seenHere, stored('q2', 'a1', 'user'), stored('a2', 'q2', 'assistant')];

function setUp(onScreen: (shown: ExportedMessageRepository) => ExportedMessageRepository, { fails = false } = {}) {
  const shown = onScreen(showStored({ thread, messages: seenHere, headId: null }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (fails) throw new TypeError('Failed to fetch');
      const later = { ...thread, updatedAt: '2026-01-01T00:05:00.000Z' };
      const body =
        url === '/api/threads' ? { threads: [later], nextCursor: null } : { thread: later, messages: storedNow };
      return Response.json(body);
    }),
  );
  const imported: ExportedMessageRepository[] = [];
  const runtime = { export: () => shown, import: (repository) => imported.push(repository) } as ThreadRuntime;
  const asked: ThreadMessage[][] = [];
  const model: ChatModelAdapter = {
    async *run({ messages }) {
      asked.push([...messages]);
      yield { content: [{ type: 'text', text: 'An answer.' }] };
    },
  };
  const adapter = followingOtherTabs(
    model,
    () => 't1',
    () => runtime,
  );
  const run = async (messages: ThreadMessage[], answer: ThreadMessage) => {
    const options = { messages, abortSignal: new AbortController().signal, unstable_getMessage: () => answer };
    for await (const _ of adapter.run(options as unknown as ChatModelRunOptions) as AsyncGenerator) {
      // read to the end
    }
  };
  return { imported, asked, run };
}

afterEach(() => vi.unstubAllGlobals());

describe('a question asked in a tab another tab has asked in since', () => {
  it('follows the newest answer, and the tab shows the conversation as stored with the question after it', async () => {
    const question = local('local-q', 'user');
    const answer = local('local-a', 'assistant');
    const { imported, asked, run } = setUp((shown) => ({
      headId: 'local-a',
      messages: [...shown.messages, { parentId: 'a1', message: question }, { parentId: 'local-q', message: answer }],
    }));

    await run([local('q1', 'user'), local('a1', 'assistant'), question], answer);

    expect(asked[0]?.map((message) => message.id)).toEqual(['q1', 'a1', 'q2', 'a2', 'local-q']);
    expect(imported[0]?.headId).toBe('local-a');
    expect(imported[0]?.messages.map(({ parentId, message }) => [parentId, message.id])).toEqual([
      [null, 'q1'],
      ['q1', 'a1'],
      ['a1', 'q2'],
      ['q2', 'a2'],
      ['a2', 'local-q'],
      ['local-q', 'local-a'],
    ]);
    expect(imported[0]?.messages.at(-1)?.message).toBe(answer);
  });

  it('keeps an edit where the reader made it', async () => {
    const edit = local('local-q', 'user');
    const answer = local('local-a', 'assistant');
    const { imported, asked, run } = setUp((shown) => ({
      headId: 'local-a',
      messages: [
        ...shown.messages,
        { parentId: 'a1', message: local('q-before', 'user') },
        { parentId: 'a1', message: edit },
        { parentId: 'local-q', message: answer },
      ],
    }));

    await run([local('q1', 'user'), local('a1', 'assistant'), edit], answer);

    expect(asked[0]?.map((message) => message.id)).toEqual(['q1', 'a1', 'local-q']);
    expect(imported).toEqual([]);
  });

  it('asks where the question was when the server cannot be asked what changed', async () => {
    const question = local('local-q', 'user');
    const answer = local('local-a', 'assistant');
    const { imported, asked, run } = setUp(
      (shown) => ({
        headId: 'local-a',
        messages: [...shown.messages, { parentId: 'a1', message: question }, { parentId: 'local-q', message: answer }],
      }),
      { fails: true },
    );

    await run([local('q1', 'user'), local('a1', 'assistant'), question], answer);

    expect(asked[0]?.map((message) => message.id)).toEqual(['q1', 'a1', 'local-q']);
    expect(imported).toEqual([]);
  });
});

describe("this tab's own turn", () => {
  it('leaves a conversation read whole just before it known whole after it, and no other', () => {
    const later = '2026-01-01T00:05:00.000Z';
    showStored({ thread, messages: seenHere, headId: null });

    noteOwnTurn('t1', { before: '2026-01-01T00:01:00.000Z', after: later });
    expect(readVersionOf('t1')).toBe(at);
    noteOwnTurn('t1', undefined);
    expect(readVersionOf('t1')).toBe(at);

    noteOwnTurn('t1', { before: at, after: later });
    expect(readVersionOf('t1')).toBe(later);
  });
});
