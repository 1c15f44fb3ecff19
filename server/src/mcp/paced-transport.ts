import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error an entry is answered with instead of running. */
export type EntryRefusal = JSONRPCErrorResponse['error'];

/** Asked just before a request runs: a refusal to answer it with, or undefined to run it. */
export type EntryCheck = (request: JSONRPCRequest) => Promise<EntryRefusal | undefined>;

/**
 * The SDK's transport for one POST to /mcp, handing its entries to the server one at a time. The SDK hands every
 * entry of a batch (up to 100) to the server at once, and their work, much of it synchronous (a search scores every
 * section), then runs back to back: one POST could hold the instance for seconds. Here each entry waits for the one
 * before it to be answered and for a new turn of the event loop, so every other request is served between any two
 * entries, as if the batch had come as separate requests. Just before a request runs, `check` may refuse it (a limit):
 * it is then answered with that error and never reaches the server, and the rest of the batch goes on.
 */
export class PacedTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  private queue: Promise<void> = Promise.resolve();
  private running: { id: RequestId; done: () => void } | undefined;
  private closed = false;

  constructor(
    private readonly inner: Transport,
    private readonly check: EntryCheck,
  ) {
    inner.onmessage = (message, extra) => this.enqueue(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.stop();
      this.onclose?.();
    };
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string) {
    this.inner.setProtocolVersion?.(version);
  }

  start() {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions) {
    try {
      await this.inner.send(message, options);
    } finally {
      const running = this.running;
      const answer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
      if (answer && running && message.id === running.id) running.done();
    }
  }

  close() {
    this.stop();
    return this.inner.close();
  }

  /** Runs nothing more, and lets go of an entry still running (its server is closing: it will not be answered). */
  private stop() {
    this.closed = true;
    this.running?.done();
  }

  private enqueue(message: JSONRPCMessage, extra?: MessageExtraInfo) {
    this.queue = this.queue
      .then(async () => {
        await nextTurnOfTheLoop();
        if (this.closed) return;
        if (!isJSONRPCRequest(message)) return this.onmessage?.(message, extra);
        // A check that fails refuses its entry rather than leave the POST waiting for an answer that never comes.
        const refusal = await this.check(message).catch((error: unknown) => {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          return { code: -32603, message: 'Internal error' };
        });
        if (this.closed) return;
        if (refusal) return this.inner.send({ jsonrpc: '2.0', id: message.id, error: refusal });
        const answered = new Promise<void>((resolve) => {
          this.running = { id: message.id, done: resolve };
        });
        this.onmessage?.(message, extra);
        await answered;
        this.running = undefined;
      })
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
