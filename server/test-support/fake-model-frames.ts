/**
 * The streamed frames of each provider's wire protocol, as the local model stand-in (fake-model-server.ts) sends
 * them: a start, text deltas, then the end, with any tool calls in the provider's own streaming format.
 */

/** A tool call the scripted model makes; `input` is sent as its JSON arguments. */
export type ScriptedToolCall = { name: string; input: unknown };

/** `startsToolCall`: the frame opens a tool call (its name and the first part of its arguments). */
type Frame = { event?: string; data: unknown; startsToolCall?: boolean };
type Frames = {
  start(model: string): Frame[];
  delta(text: string): Frame[];
  end(finishReason: string, toolCalls: readonly ScriptedToolCall[]): Frame[];
};

const created = () => Math.floor(Date.now() / 1000);

/** Arguments arrive in two pieces, as providers stream them, so the SDK's reassembly is exercised too. */
const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];

const openAiChunk = (delta: unknown, finishReason: string | null = null, extra: object = {}) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: created(),
  model: 'test',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
  ...extra,
});

export const protocolFrames: Record<'openai' | 'anthropic' | 'google', Frames> = {
  openai: {
    start: (model) => [{ data: { ...openAiChunk({ role: 'assistant', content: '' }), model } }],
    delta: (text) => [{ data: openAiChunk({ content: text }) }],
    end: (finishReason, toolCalls) => [
      ...toolCalls.flatMap((call, index) => {
        const [first, second] = halves(JSON.stringify(call.input));
        const id = `call_${index + 1}`;
        return [
          {
            data: openAiChunk({
              tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: first } }],
            }),
            startsToolCall: true,
          },
          { data: openAiChunk({ tool_calls: [{ index, function: { arguments: second } }] }) },
        ];
      }),
      {
        data: openAiChunk({}, toolCalls.length ? 'tool_calls' : finishReason, {
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      },
      { data: '[DONE]' },
    ],
  },
  anthropic: {
    start: (model) => [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_test',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
    ],
    delta: (text) => [
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      },
    ],
    end: (_finishReason, toolCalls) => [
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      ...toolCalls.flatMap((call, position) => {
        const index = position + 1;
        return [
          {
            event: 'content_block_start',
            data: {
              type: 'content_block_start',
              index,
              content_block: { type: 'tool_use', id: `toolu_${index}`, name: call.name, input: {} },
            },
          },
          ...halves(JSON.stringify(call.input)).map((partial_json, half) => ({
            event: 'content_block_delta',
            data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
            startsToolCall: half === 0,
          })),
          { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
        ];
      }),
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: toolCalls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: 10 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  },
  google: {
    start: () => [],
    delta: (text) => [{ data: { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }] } }],
    end: (_finishReason, toolCalls) => [
      // Gemini sends a call whole; cut there, the call never arrives.
      ...toolCalls.map((call) => ({
        startsToolCall: true,
        data: {
          candidates: [
            { content: { parts: [{ functionCall: { name: call.name, args: call.input } }], role: 'model' }, index: 0 },
          ],
        },
      })),
      {
        data: {
          candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
        },
      },
    ],
  },
};
