import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChunks, textOf } from '../server/test-support/copilot-api';
import { type FakeModelServer, startFakeModelServer } from '../server/test-support/fake-model-server';
import { startServer, type TestServer } from './harness';
import { rawConnection as rawConnectionTo } from './raw-connection';
import { sessionCookieFor } from './sign-in';
import { readerApi } from './threads-api';

/**
 * The server with its headers timeout shortened to half a second: a connection that sends no request, or headers that
 * never end, is answered 408 and closed once it is past; a keep-alive connection between two requests, a body still
 * arriving and an answer still streaming are not held to it.
 */
const limitMs = 500;
let fakeModel: FakeModelServer;
let server: TestServer;

beforeAll(async () => {
  fakeModel = await startFakeModelServer();
  server = await startServer(
    { COPILOT_PROVIDER: 'openai-compatible', COPILOT_MODEL: 'test-model', COPILOT_BASE_URL: `${fakeModel.url}/v1` },
    { headersTimeoutMs: limitMs },
  );
});

afterAll(async () => {
  await server?.close();
  await fakeModel?.close();
});

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A connection of our own to the server (raw-connection.ts). */
const rawConnection = () => rawConnectionTo(server.baseUrl);

describe('a connection that sends no whole request', () => {
  it('isClosedOnceTheLimitIsPast when it never sends a byte, with 408', async () => {
    const connection = rawConnection();
    const closedAfterMs = await connection.closedAfterMs;
    expect(closedAfterMs).toBeGreaterThanOrEqual(limitMs);
    expect(closedAfterMs).toBeLessThan(3 * limitMs);
    expect(connection.statuses()).toEqual([408]);
  });

  it('isClosedOnceTheLimitIsPast when its headers never end, however steadily they trickle', async () => {
    const connection = rawConnection();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => connection.socket.write('X-Slow: y\r\n'), limitMs / 5);
    const closedAfterMs = await connection.closedAfterMs.finally(() => clearInterval(trickle));
    expect(closedAfterMs).toBeLessThan(3 * limitMs);
    expect(connection.statuses()).toEqual([408]);
  });
});

describe('a connection past the limit that is not waiting on its headers', () => {
  it('keepsAKeepAliveConnectionBetweenTwoRequests', async () => {
    const connection = rawConnection();
    const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    connection.socket.write(request);
    await expect.poll(connection.statuses).toEqual([200]);
    await sleep(3 * limitMs);
    connection.socket.write(request);
    await expect.poll(connection.statuses).toEqual([200, 200]);
    connection.socket.destroy();
  });

  it('letsABodyArriveSlowly: the request is answered once its last byte is in', async () => {
    const connection = rawConnection();
    const body = 'grant_type=password';
    connection.socket.write(
      'POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    // A byte a tenth of a second: the body takes about four times the limit.
    for (const character of body) {
      await sleep(limitMs / 5);
      connection.socket.write(character);
    }
    await expect.poll(connection.statuses).toEqual([400]);
    expect(connection.received()).toContain('unsupported_grant_type');
    connection.socket.destroy();
  });

  it('letsAStreamedAnswerPauseLongerThanTheLimit between its parts', async () => {
    const api = readerApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'slow-answer@acme.dev'));
    const reply = ['Register ', 'the ', 'runner.'];
    fakeModel.behave({ reply, firstChunkDelayMs: 2 * limitMs, chunkDelayMs: 2 * limitMs });
    const threadId = await api.newThread();
    const response = await api.startTurn({ threadId, parentId: null, text: 'How do I register a GitLab runner?' });
    expect(response.status).toBe(200);
    expect(textOf(await readChunks(response))).toBe(reply.join(''));
  }, 30_000);
});
