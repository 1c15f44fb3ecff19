import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './provider-bounds.js';

/** A provider streaming an event every 20 ms until its caller hangs up; `closed` counts the hang-ups it saw. */
let server: Server;
let url: string;
const hangUps: number[] = [];

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = setInterval(() => response.write('data: {"delta":"word"}\n\n'), 20);
    response.on('close', () => {
      clearInterval(events);
      hangUps.push(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** V8's collector, callable without starting Node with --expose-gc. */
function collectGarbage() {
  setFlagsFromString('--expose_gc');
  (runInNewContext('gc') as () => void)();
}

const until = async (condition: () => boolean, withinMs: number) => {
  for (const started = Date.now(); !condition() && Date.now() - started < withinMs; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
};

describe('a guarded fetch to a model provider', () => {
  it('closes the connection when its caller aborts mid-answer, even after a garbage collection', async () => {
    // Undici's fetch lost the caller's signal once the Request it made was collected (Node 20: every time).
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = hangUps.length;
      const stop = new AbortController();
      const response = await guardedFetch({ firstByteMs: 5_000, maxBytes: 10_000_000 })(url, { signal: stop.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 50));
      collectGarbage();
      stop.abort(new Error('The reader pressed Stop'));

      expect(await until(() => hangUps.length > before, 2_000), `attempt ${attempt + 1}`).toBe(true);
      await expect(reader.read()).rejects.toThrow('The reader pressed Stop');
    }
  });
});
