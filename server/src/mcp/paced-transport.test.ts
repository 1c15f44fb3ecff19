import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { PacedTransport } from './paced-transport.js';

/** The SDK's HTTP transport as the server sees it: it hands every entry of a POST on at once, in one go. */
class PostTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  readonly sent: JSONRPCMessage[] = [];
  async start() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
  async close() {
    this.onclose?.();
  }
  post(messages: JSONRPCMessage[]) {
    for (const message of messages) this.onmessage?.(message);
  }
}

const request = (id: number, method = 'tools/call'): JSONRPCRequest => ({ jsonrpc: '2.0', id, method, params: {} });
const answered = (transport: PostTransport, count: number) =>
  expect.poll(() => transport.sent.length, { timeout: 2000, interval: 5 }).toBe(count);

/** A server that answers each request at once, as a CPU-bound tool does, logging what it ran. */
function answering(paced: PacedTransport, log: string[]) {
  paced.onmessage = (message) => {
    if (!('id' in message) || !('method' in message)) return;
    log.push(`ran ${message.id}`);
    void paced.send({ jsonrpc: '2.0', id: message.id, result: {} });
  };
}

describe('a POST paced entry by entry', () => {
  it('runs its requests one at a time, the event loop serving others between any two', async () => {
    const post = new PostTransport();
    const paced = new PacedTransport(post, async () => undefined);
    const log: string[] = [];
    answering(paced, log);
    await paced.start();
    let serving = true;
    const others = () => {
      log.push('others');
      if (serving) setImmediate(others);
    };
    setImmediate(others);
    post.post([1, 2, 3, 4, 5].map((id) => request(id)));
    await answered(post, 5);
    serving = false;
    const ran = log.filter((line) => line.startsWith('ran'));
    expect(ran).toEqual(['ran 1', 'ran 2', 'ran 3', 'ran 4', 'ran 5']);
    for (const [index, line] of log.entries()) {
      if (line.startsWith('ran') && index > 0) expect(log[index - 1], log.join(', ')).toBe('others');
    }
  });

  it('answers an entry its check refuses with the refusal and never runs it, the rest of the POST as usual', async () => {
    const post = new PostTransport();
    const refusal = { code: -32004, message: 'Too many', data: { retryAfterSeconds: 60 } };
    const checked: (string | number)[] = [];
    const paced = new PacedTransport(post, async (entry) => {
      checked.push(entry.id);
      return entry.id === 2 || entry.id === 4 ? refusal : undefined;
    });
    const log: string[] = [];
    answering(paced, log);
    await paced.start();
    post.post([request(1), request(2), request(3), request(4)]);
    await answered(post, 4);
    expect(log).toEqual(['ran 1', 'ran 3']);
    expect(checked).toEqual([1, 2, 3, 4]);
    expect(post.sent).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: refusal },
      { jsonrpc: '2.0', id: 3, result: {} },
      { jsonrpc: '2.0', id: 4, error: refusal },
    ]);
  });

  it('hands notifications on in order without checking them', async () => {
    const post = new PostTransport();
    const checked: (string | number)[] = [];
    const paced = new PacedTransport(post, async (entry) => {
      checked.push(entry.id);
      return undefined;
    });
    const seen: string[] = [];
    paced.onmessage = (message) => {
      if ('method' in message) seen.push(message.method);
      if ('id' in message && 'method' in message) void paced.send({ jsonrpc: '2.0', id: message.id, result: {} });
    };
    await paced.start();
    post.post([request(1, 'ping'), { jsonrpc: '2.0', method: 'notifications/initialized' }, request(2, 'tools/list')]);
    await answered(post, 2);
    await expect.poll(() => seen).toEqual(['ping', 'notifications/initialized', 'tools/list']);
    expect(checked).toEqual([1, 2]);
  });

  it('runs nothing more once closed, and does not wait on an entry that never answered', async () => {
    const post = new PostTransport();
    const paced = new PacedTransport(post, async () => undefined);
    const ran: (string | number)[] = [];
    let closedSeen = false;
    paced.onclose = () => {
      closedSeen = true;
    };
    paced.onmessage = (message) => {
      if (isJSONRPCRequest(message)) ran.push(message.id);
    };
    await paced.start();
    post.post([request(1), request(2), request(3)]);
    await expect.poll(() => ran).toEqual([1]);
    await paced.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([1]);
    expect(closedSeen).toBe(true);
  });
});
