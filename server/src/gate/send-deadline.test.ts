import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { enforceSendDeadline } from './send-deadline.js';

const large = Buffer.alloc(32 * 1024 * 1024, 'x');
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A server with the deadline: `/whole` hands the body over at once, `/stream` writes it in pieces. `closed` resolves
 * with how long its first connection lived.
 */
async function serverWithDeadline(deadlineMs: number, body: Buffer) {
  let opened = 0;
  let connectionClosed = (_ms: number) => {};
  const closed = new Promise<number>((resolve) => {
    connectionClosed = resolve;
  });
  const server = http.createServer((request, response) => {
    if (request.url === '/whole') return response.end(body);
    if (request.url === '/fast') return response.end('fast');
    if (request.url === '/waits') {
      // An answer that waits for its next piece, with nothing unsent meanwhile.
      response.write('first ');
      setTimeout(() => response.end('last'), 900);
      return;
    }
    let sent = 0;
    const more = () => {
      while (sent < body.length) {
        const piece = body.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!response.write(piece)) return response.once('drain', more);
      }
      response.end();
    };
    more();
  });
  server.once('connection', (socket) => {
    opened = Date.now();
    socket.once('close', () => connectionClosed(Date.now() - opened));
  });
  enforceSendDeadline(server, deadlineMs);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, closed };
}

/** Asks for `path` and reads nothing. */
function askAndNeverRead(port: number, path: string) {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
    socket.pause();
  });
  socket.on('error', () => {});
  return socket;
}

describe('the send deadline', () => {
  it.each(['/whole', '/stream'])('ends a connection whose reader leaves %s unread', async (path) => {
    const { port, closed } = await serverWithDeadline(300, large);
    const reader = askAndNeverRead(port, path);
    const held = await closed;
    reader.destroy();
    expect(held).toBeGreaterThanOrEqual(300);
    expect(held).toBeLessThan(5_000);
  });

  it('lets a reader who reads take all of it, and an answer wait for its next piece', async () => {
    const body = Buffer.alloc(4 * 1024 * 1024, 'y');
    const { port } = await serverWithDeadline(5_000, body);
    for (const path of ['/whole', '/stream']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      expect((await response.arrayBuffer()).byteLength).toBe(body.length);
    }
    // Waiting three times the deadline for its next piece, with nothing unsent.
    const short = await serverWithDeadline(300, body);
    expect(await (await fetch(`http://127.0.0.1:${short.port}/waits`)).text()).toBe('first last');
  });

  it('keeps a reader who takes a large response slowly but steadily, long past the deadline', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 'z');
    const { port } = await serverWithDeadline(300, body);
    let received = 0;
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /whole HTTP/1.1\r\nhost: x\r\n\r\n'));
      socket.pause();
      // 64 KB every 50 ms: about 1.3 MB/s, so the response takes several deadlines to read.
      const tick = setInterval(() => {
        const piece = socket.read(64 * 1024) as Buffer | null;
        if (piece) received += piece.length;
        if (received >= body.length) socket.destroy();
      }, 50);
      socket.on('close', () => {
        clearInterval(tick);
        resolve();
      });
    });
    expect(Date.now() - started).toBeGreaterThan(900);
    expect(received).toBeGreaterThanOrEqual(body.length);
  });

  it('leaves a pipelined response waiting its turn behind an answer that waits for its next piece', async () => {
    const { port } = await serverWithDeadline(300, Buffer.alloc(1));
    const text = await new Promise<string>((resolve) => {
      let all = '';
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('GET /waits HTTP/1.1\r\nhost: x\r\n\r\nGET /fast HTTP/1.1\r\nhost: x\r\n\r\n'),
      );
      socket.on('data', (data) => {
        all += String(data);
        if (all.includes('fast')) socket.end();
      });
      socket.on('close', () => resolve(all));
    });
    // The answer in its chunks, whole (its last chunk and the end), then the response that waited behind it.
    expect(text).toMatch(/first [\s\S]*last\r\n0\r\n\r\n[\s\S]*fast$/);
  });
});
