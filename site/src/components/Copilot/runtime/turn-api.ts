import type { TurnDataParts, TurnRequest } from '@acme/contract';
import { type AssistantMessage, AssistantMessageAccumulator, UIMessageStreamDecoder } from 'assistant-stream';
import { CopilotError, errorFromResponse, reached } from './copilot-error';

/** What the server sent of a turn's data parts so far: the ids it made, link verdicts, why it failed. */
export type TurnData = {
  turn?: TurnDataParts['turn'];
  links: TurnDataParts['link'][];
  confidence?: TurnDataParts['confidence']['confidence'];
  failure?: TurnDataParts['failure'];
};

/** An answer as it streams: its parts (text, sources) so far, and the turn's data. */
export type TurnSnapshot = { message: AssistantMessage; data: TurnData };

/**
 * Asks one turn (POST /api/turns) and yields the answer as it grows. The stream is the AI SDK's UI message stream;
 * assistant-stream (assistant-ui's own, already in the chat's code) decodes and accumulates it. The server stores
 * the question and the answer; aborting only stops reading (the answer is still completed and stored unless
 * `stopTurn` is called).
 */
export async function* askTurn(turn: TurnRequest, signal: AbortSignal): AsyncGenerator<TurnSnapshot> {
  const response = await reached(
    fetch('/api/turns', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(turn),
      signal,
    }),
  );
  if (!response.ok) throw await errorFromResponse(response);
  if (!response.body) throw new CopilotError('internal:stream', 'Dev Copilot sent no answer. Try again.');
  const data: TurnData = { links: [] };
  const decoder = new UIMessageStreamDecoder({
    onData: ({ name, data: value }) => {
      if (name === 'turn') data.turn = value as TurnData['turn'];
      else if (name === 'link') data.links.push(value as TurnDataParts['link']);
      else if (name === 'confidence') data.confidence = (value as TurnDataParts['confidence']).confidence;
      else if (name === 'failure') data.failure = value as TurnData['failure'];
    },
  });
  const messages = response.body.pipeThrough(decoder).pipeThrough(new AssistantMessageAccumulator()).getReader();
  try {
    for (;;) {
      const { value, done } = await messages.read().catch((error: unknown) => {
        if (signal.aborted) throw error;
        // The connection broke before the answer's end; the server still finishes and stores it.
        throw new CopilotError('internal:stream', 'The answer stopped arriving half-way. Reload to see all of it.');
      });
      if (done) return;
      yield { message: value, data: { ...data, links: [...data.links] } };
    }
  } finally {
    messages.releaseLock();
  }
}

/**
 * Stops the answer being written in a thread (the reader pressed Stop); what was written is kept. True when the
 * server stopped it (false: no answer was running there, it had ended or another instance writes it).
 */
export function stopTurn(threadId: string): Promise<boolean> {
  return fetch(`/api/threads/${encodeURIComponent(threadId)}/stop`, {
    method: 'POST',
    credentials: 'same-origin',
    keepalive: true,
  }).then((response) => response.ok);
}
