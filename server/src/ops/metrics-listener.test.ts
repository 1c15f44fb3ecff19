import { connect } from 'node:net';
import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { listenForScrapes } from './metrics-listener.js';

it('closes a scrape whose headers trickle in past the deadline with 408, as the public port does', async () => {
  const listener = await listenForScrapes(new Registry(), { host: '127.0.0.1', port: 0, headersTimeout: 600 });
  try {
    const socket = connect(listener.address().port, '127.0.0.1');
    const started = performance.now();
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    // A line written after the 408 may meet the closed socket, which the kernel answers with a reset: no failure here.
    socket.on('error', () => {});
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    // One more header line every 150 ms, never the blank line that ends them.
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 150);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(3_000);
  } finally {
    await listener.close();
  }
});
