import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { protocolFrames, type ScriptedToolCall } from './fake-model-frames.js';

export type { ScriptedToolCall } from './fake-model-frames.js';

/**
 * A local stand-in for the hosted model APIs this machine cannot reach. It speaks their real wire protocols
 * (OpenAI chat completions, Anthropic messages, Google Gemini streamGenerateContent, OpenAI embeddings), so the AI
 * SDK's own providers talk to it unchanged. Tests script how it behaves and read what it was sent.
 */

export type Behaviour = {
  /** The answer, sent in these pieces (a string is split into words). */
  reply?: string | string[];
  /** Wait before the first piece and between pieces. */
  firstChunkDelayMs?: number;
  chunkDelayMs?: number;
  /** Answer with this HTTP error instead. */
  status?: number;
  /** The Retry-After header sent with `status` (seconds, or an HTTP date). */
  retryAfter?: string;
  /** Redirect to the same address with a 307, every time (a loop). */
  redirectLoop?: boolean;
  /** Send one piece the protocol cannot parse, then stop. */
  malformed?: boolean;
  /** Accept the request and never answer. */
  hang?: boolean;
  /** Send the response's headers, then nothing. */
  hangAfterHeaders?: boolean;
  /** After the start, one line of this many bytes that never ends (a provider streaming without a newline). */
  floodBytes?: number;
  /** Before sending piece `piece`, wait until `until` settles: the test decides when the answer goes on. */
  holdAt?: { piece: number; until: Promise<unknown> };
  /** Drop the connection after this many pieces, mid-answer (a provider or network failing part-way). */
  cutAfter?: number;
  /** Drop the connection in the middle of the first tool call's arguments. */
  cutInToolCall?: boolean;
  /** Why the answer ended (OpenAI protocol): `length` is an answer cut at the output limit. */
  finishReason?: 'stop' | 'length';
  /** The embedding of a text; hashed words by default. */
  embed?: (text: string) => number[];
  /** Embeddings: send the headers, then one byte of the answer every this many milliseconds, never finishing. */
  dripEveryMs?: number;
  /** Tools the model calls after its text, with their arguments, streamed in the provider's own format. */
  toolCalls?: ScriptedToolCall[];
};

export type ReceivedRequest = {
  protocol: 'openai' | 'anthropic' | 'google' | 'embeddings';
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** Set when the caller hung up before the answer was complete. */
  closedEarlyAt?: number;
  finishedAt?: number;
  /** Bytes of the answer's body written so far (counted for `floodBytes`). */
  bytesSent?: number;
};

export type FakeModelServer = Awaited<ReturnType<typeof startFakeModelServer>>;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function piecesOf(reply: Behaviour['reply']): string[] {
  if (Array.isArray(reply)) return reply;
  return (reply ?? 'Hello from the test model.').match(/\S+\s*|\s+/g) ?? [];
}

/** A deterministic 64-dimension embedding: hashed words, so texts sharing words point the same way. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 0;
    for (const character of word) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
    vector[hash % 64] = (vector[hash % 64] ?? 0) + 1;
  }
  return vector;
}

/** Writes `data: {"choices":[{"delta":{"content":"xxx…` up to `bytes`, never ending the line, as the caller reads it. */
async function flood(response: ServerResponse, record: ReceivedRequest, bytes: number, start: string) {
  const piece = Buffer.alloc(64 * 1024, 'x');
  record.bytesSent = 0;
  let next = Buffer.from(start);
  while (record.bytesSent < bytes) {
    if (response.destroyed) throw new Error('closed');
    const sending = next;
    // Each piece waits for the one before it to be taken, so neither end holds more than the socket does.
    await new Promise<void>((resolve, reject) =>
      response.write(sending, (error) => (error ? reject(error) : resolve())),
    );
    record.bytesSent += sending.length;
    next = piece;
  }
  response.end();
}

/** One byte of a JSON answer at a time, until the caller hangs up: never silent, never done. */
async function drip(response: ServerResponse, record: ReceivedRequest, everyMs: number) {
  record.bytesSent = 0;
  response.write('{');
  while (!response.destroyed) {
    await sleep(everyMs);
    response.write(' ');
    record.bytesSent += 1;
  }
}

/** A promise for `holdAt`, and the call that lets the answer go on. */
export function heldAnswer() {
  let release = () => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { until, release };
}

export async function startFakeModelServer() {
  let script: Behaviour[] = [{}];
  let scriptedRequests = 0;
  const received: ReceivedRequest[] = [];
  const openResponses = new Set<ServerResponse>();

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const protocol: ReceivedRequest['protocol'] | undefined = path.endsWith('/chat/completions')
      ? 'openai'
      : path.endsWith('/messages')
        ? 'anthropic'
        : path.includes(':streamGenerateContent')
          ? 'google'
          : path.endsWith('/embeddings')
            ? 'embeddings'
            : undefined;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      // Recorded as empty; the test will see it.
    }
    if (!protocol) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
      return;
    }
    const record: ReceivedRequest = { protocol, path, headers: request.headers, body };
    received.push(record);
    openResponses.add(response);
    response.on('close', () => {
      openResponses.delete(response);
      if (!response.writableFinished) record.closedEarlyAt = Date.now();
    });
    const current =
      protocol === 'embeddings'
        ? (script.at(-1) ?? {})
        : (script[Math.min(scriptedRequests++, script.length - 1)] ?? {});
    try {
      await answer(protocol, record, current, response);
      record.finishedAt = Date.now();
    } catch {
      // The caller went away mid-answer: that is what abort tests look for.
    }
  });

  async function answer(
    protocol: ReceivedRequest['protocol'],
    record: ReceivedRequest,
    current: Behaviour,
    response: ServerResponse,
  ) {
    if (current.hang) return;
    if (current.redirectLoop) {
      response.writeHead(307, { location: record.path }).end();
      return;
    }
    if (current.status) {
      response.writeHead(current.status, {
        'content-type': 'application/json',
        ...(current.retryAfter === undefined ? {} : { 'retry-after': current.retryAfter }),
      });
      response.end(JSON.stringify({ error: { message: `scripted failure ${current.status}`, type: 'server_error' } }));
      return;
    }
    if (protocol === 'embeddings' && (current.floodBytes || current.dripEveryMs)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (current.floodBytes) await flood(response, record, current.floodBytes, '{"object":"list","data":[{"x":"');
      else await drip(response, record, current.dripEveryMs ?? 1000);
      return;
    }
    if (protocol === 'embeddings') {
      const input = record.body.input;
      const texts = Array.isArray(input) ? input.map(String) : [String(input)];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'list',
          data: texts.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: (current.embed ?? fakeEmbedding)(text),
          })),
          model: String(record.body.model),
          usage: { prompt_tokens: texts.length, total_tokens: texts.length },
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (current.hangAfterHeaders) {
      response.flushHeaders();
      return;
    }
    const send = (data: unknown, event?: string) =>
      new Promise<void>((resolve, reject) => {
        if (response.destroyed) return reject(new Error('closed'));
        const text = typeof data === 'string' ? data : JSON.stringify(data);
        response.write(`${event ? `event: ${event}\n` : ''}data: ${text}\n\n`, (error) =>
          error ? reject(error) : resolve(),
        );
      });
    const frames = protocolFrames[protocol];
    await sleep(current.firstChunkDelayMs ?? 0);
    for (const frame of frames.start(String(record.body.model ?? 'test'))) await send(frame.data, frame.event);
    if (current.floodBytes) {
      await flood(response, record, current.floodBytes, 'data: {"choices":[{"index":0,"delta":{"content":"');
      return;
    }
    if (current.malformed) {
      await send('{"choices":[{"delta":{"content":');
      response.end();
      return;
    }
    const pieces = piecesOf(current.reply);
    for (const [index, piece] of pieces.entries()) {
      if (index === current.cutAfter) {
        response.socket?.destroy();
        return;
      }
      if (index > 0) await sleep(current.chunkDelayMs ?? 0);
      if (index === current.holdAt?.piece) await current.holdAt.until;
      for (const frame of frames.delta(piece)) await send(frame.data, frame.event);
    }
    const toolCalls = current.toolCalls ?? [];
    for (const frame of frames.end(current.finishReason ?? 'stop', toolCalls)) {
      await send(frame.data, frame.event);
      if (frame.startsToolCall && current.cutInToolCall) {
        response.socket?.destroy();
        return;
      }
    }
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /**
     * How the next requests are answered, until changed. A list scripts a run of several steps: the first model
     * request after this call gets the first behaviour, the next the second, and the last answers all after it.
     */
    behave(next: Behaviour | Behaviour[]) {
      script = Array.isArray(next) ? next : [next];
      scriptedRequests = 0;
    },
    reset() {
      script = [{}];
      scriptedRequests = 0;
      received.length = 0;
    },
    async close() {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
