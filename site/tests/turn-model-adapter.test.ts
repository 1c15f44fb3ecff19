import type { ChatModelRunOptions, ThreadMessage } from '@assistant-ui/react';
import { createUIMessageStream, JsonToSseTransformStream } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerConversation } from '../src/components/Copilot/runtime/conversation';
import { createTurnModelAdapter } from '../src/components/Copilot/runtime/turn-model-adapter';

const message = (id: string, role: 'user' | 'assistant', text: string) =>
  ({
    id,
    role,
    content: [{ type: 'text', text }],
    attachments: [],
    metadata: { custom: {} },
  }) as unknown as ThreadMessage;

/** A turn's answer as the server streams it (the AI SDK's UI message stream over SSE). */
function turnResponse(ids: { questionId: string; answerId: string }, text: string) {
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: 'start', messageId: ids.answerId });
      writer.write({ type: 'data-turn', data: { threadId: 't1', ...ids } });
      writer.write({ type: 'text-start', id: 'x' });
      writer.write({ type: 'text-delta', id: 'x', delta: text });
      writer.write({ type: 'text-end', id: 'x' });
      writer.write({ type: 'finish' });
    },
  });
  const body = stream.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream());
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

function setUp(answers: Array<{ questionId: string; answerId: string }>, { delayMs = 0 } = {}) {
  const requests: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      await new Promise((resolve) => setTimeout(resolve, url === '/api/turns' ? delayMs : 0));
      const next = url === '/api/turns' ? answers.shift() : undefined;
      return next ? turnResponse(next, 'An answer.') : new Response(null, { status: 204 });
    }),
  );
  const conversation = new ServerConversation({ remoteId: () => 't1', initialize: async () => ({ remoteId: 't1' }) });
  const adapter = createTurnModelAdapter(conversation, () => '/firestore-ttl');
  const run = async (messages: ThreadMessage[], answerId: string, signal = new AbortController().signal) => {
    const results = [];
    const options = { messages, abortSignal: signal, unstable_assistantMessageId: answerId };
    for await (const result of adapter.run(options as unknown as ChatModelRunOptions)) results.push(result);
    return results;
  };
  return { requests, conversation, run };
}

afterEach(() => vi.unstubAllGlobals());

describe('each run of the runtime is one turn on the server', () => {
  it('asks a new question after the stored answer before it, and remembers the ids the server made', async () => {
    const { requests, conversation, run } = setUp([
      { questionId: 'q1', answerId: 'a1' },
      { questionId: 'q2', answerId: 'a2' },
    ]);
    const first = message('local-u1', 'user', 'How do I set a TTL?');

    const results = await run([first], 'local-a1');
    await run(
      [first, message('local-a1', 'assistant', 'An answer.'), message('local-u2', 'user', 'And why?')],
      'local-a2',
    );

    expect(results.at(-1)?.content).toEqual([{ type: 'text', text: 'An answer.' }]);
    expect(requests.map((request) => request.body)).toEqual([
      { threadId: 't1', attachments: [], page: '/firestore-ttl', parentId: null, text: 'How do I set a TTL?' },
      { threadId: 't1', attachments: [], page: '/firestore-ttl', parentId: 'a1', text: 'And why?' },
    ]);
    expect([conversation.serverIdOf('local-u1'), conversation.serverIdOf('local-a2')]).toEqual(['q1', 'a2']);
  });

  it('answers a stored question again on Refresh instead of asking it twice', async () => {
    const { requests, run } = setUp([
      { questionId: 'q1', answerId: 'a1' },
      { questionId: 'q1', answerId: 'a1b' },
    ]);
    const question = message('local-u1', 'user', 'How do I set a TTL?');

    await run([question], 'local-a1');
    await run([question], 'local-a1b');

    expect(requests[1]?.body).toEqual({ threadId: 't1', attachments: [], page: '/firestore-ttl', retryOf: 'q1' });
  });

  it('sends nothing when Stop came before the question left', async () => {
    const { requests, run } = setUp([{ questionId: 'q1', answerId: 'a1' }]);
    const stop = new AbortController();
    stop.abort();

    expect(await run([message('local-u1', 'user', 'Count to ten')], 'local-a1', stop.signal)).toEqual([]);

    expect(requests).toEqual([]);
  });

  it('ends the run at once on Stop while the question is on its way, and stops the answer once the server has it', async () => {
    const { requests, conversation, run } = setUp([{ questionId: 'q1', answerId: 'a1' }], { delayMs: 100 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 10);

    expect(await run([message('local-u1', 'user', 'Count to ten')], 'local-a1', stop.signal)).toEqual([]);

    await vi.waitFor(() => expect(requests.map((request) => request.url)).toContain('/api/threads/t1/stop'));
    expect(conversation.serverIdOf('local-u1')).toBe('q1');
  });

  it('only stops reading when the conversation leaves the screen: the server finishes the answer', async () => {
    const { requests, run } = setUp([{ questionId: 'q1', answerId: 'a1' }]);
    const leaving = new AbortController();
    leaving.abort(Object.assign(new Error('detached'), { name: 'AbortError', detach: true }));

    await run([message('local-u1', 'user', 'Count to ten')], 'local-a1', leaving.signal).catch(() => []);

    expect(requests.map((request) => request.url)).not.toContain('/api/threads/t1/stop');
  });
});
