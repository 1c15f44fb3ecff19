import type { TurnDataParts, TurnMetadata, TurnRequest } from '@acme/contract';
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { CopilotError, errorFromResponse } from './copilot-error';

/** An answer as it streams: the AI SDK's message with our metadata and data parts. */
export type TurnMessage = UIMessage<TurnMetadata, TurnDataParts>;

/** Reads a turn's UI message stream (AI SDK protocol) into chunks, with the SDK's own parser. */
function chunksOf(body: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk<TurnMetadata, TurnDataParts>> {
  return parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success)
          throw new CopilotError('internal:stream', 'Dev Copilot sent an answer that could not be read.');
        controller.enqueue(result.value as UIMessageChunk<TurnMetadata, TurnDataParts>);
      },
    }),
  );
}

/**
 * Asks one turn (POST /api/turns) and yields the answer as it grows. The server stores the question and the answer;
 * aborting only stops reading (the answer is still completed and stored unless `stopTurn` is called).
 */
export async function* askTurn(turn: TurnRequest, signal: AbortSignal): AsyncGenerator<TurnMessage> {
  const response = await fetch('/api/turns', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(turn),
    signal,
  });
  if (!response.ok) throw await errorFromResponse(response);
  if (!response.body) throw new CopilotError('internal:stream', 'Dev Copilot sent no answer. Try again.');
  yield* readUIMessageStream<TurnMessage>({ stream: chunksOf(response.body), terminateOnError: true });
}

/** Stops the answer being written in a thread (the reader pressed Stop); what was written is kept. */
export function stopTurn(threadId: string): Promise<void> {
  return fetch(`/api/threads/${encodeURIComponent(threadId)}/stop`, {
    method: 'POST',
    credentials: 'same-origin',
    keepalive: true,
  }).then(() => undefined);
}
