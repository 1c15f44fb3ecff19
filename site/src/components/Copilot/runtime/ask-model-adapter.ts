import type { ChatModelAdapter, ThreadAssistantMessagePart } from '@assistant-ui/react';
import { readAskEvents } from './ask-events';
import { toAskAiRequest } from './ask-request';
import { CopilotError, errorFromResponse } from './copilot-error';
import type { AskAiSource } from './wire-types';

/** Sources become `source` parts, so the message renders them and the thread API can store them. */
export const sourceParts = (sources: readonly AskAiSource[]): ThreadAssistantMessagePart[] =>
  sources.map((source) => ({
    type: 'source',
    sourceType: 'url',
    id: source.url,
    url: source.url,
    title: source.title,
  }));

/** The chat model behind Dev Copilot: POST /api/askAi, streamed as Server-Sent Events, cancelled by the reader. */
export function createAskAiModelAdapter(currentPage: () => string | undefined): ChatModelAdapter {
  return {
    async *run({ messages, abortSignal, unstable_assistantMessageId: answerId }) {
      const response = await fetch('/api/askAi', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        // The answer is stored under the runtime's id; askAi logs the question under the same id, so the report can
        // put a thumbs-down next to the question it answered.
        body: JSON.stringify(toAskAiRequest(messages, currentPage(), answerId)),
        signal: abortSignal,
      });
      if (!response.ok) throw await errorFromResponse(response);
      if (!response.body) throw new CopilotError('internal:stream', 'Dev Copilot sent no answer. Try again.');
      let text = '';
      for await (const event of readAskEvents(response.body)) {
        if (event.type === 'delta') {
          text += event.text;
          yield { content: [{ type: 'text', text }] };
        } else if (event.type === 'done') {
          yield {
            content: [{ type: 'text', text }, ...sourceParts(event.sources)],
            metadata: { custom: { askId: event.id } },
          };
        } else if (event.type === 'error') {
          throw new CopilotError(event.code, event.message || 'The answer stopped half-way. Try again.');
        }
      }
    },
  };
}
