import type { AskAiSource } from './wire-types';

/** One Server-Sent Event of POST /api/askAi with `Accept: text/event-stream`. */
export type AskEvent =
  | { type: 'start'; id: string; mode: string }
  | { type: 'delta'; text: string }
  | { type: 'done'; id: string; sources: AskAiSource[] }
  | { type: 'error'; code: string; message: string };

/** Parses one `event: x\ndata: {...}` block; unknown events and comments give null. */
export function parseEventBlock(block: string): AskEvent | null {
  const name = block.match(/^event: ?(.*)$/m)?.[1]?.trim();
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!name || !data) return null;
  const payload = JSON.parse(data) as Record<string, unknown>;
  switch (name) {
    case 'start':
      return { type: 'start', id: String(payload.id ?? ''), mode: String(payload.mode ?? '') };
    case 'delta':
      return { type: 'delta', text: String(payload.text ?? '') };
    case 'done':
      return { type: 'done', id: String(payload.id ?? ''), sources: (payload.sources as AskAiSource[]) ?? [] };
    case 'error':
      return { type: 'error', code: String(payload.code ?? 'internal'), message: String(payload.message ?? '') };
    default:
      return null;
  }
}

/** Reads a streamed body into events as they arrive (blocks end with a blank line). */
export async function* readAskEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<AskEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = parseEventBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
    const last = parseEventBlock(buffer);
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}
