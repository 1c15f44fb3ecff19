import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server when a client hangs up in the middle of its request body: one line at info level, no stack, and
 * never taken for a database outage (Node calls it ECONNRESET).
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-hang-up-'));
let instance: Instance;

beforeAll(async () => {
  instance = await startTestInstance(workDirectory);
});

afterAll(async () => {
  await instance?.stop('SIGTERM');
  rmSync(workDirectory, { recursive: true, force: true });
});

/** Sends the head of a POST announcing a large body, a few bytes of it, then hangs up. */
function hangUpMidBody(requestPath: string, cookie = '') {
  return new Promise<void>((resolve, reject) => {
    const socket = connect(instance.port, '127.0.0.1', () => {
      socket.write(
        `POST ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1:${instance.port}\r\nOrigin: ${instance.url}\r\n` +
          `Cookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"messages":[`,
      );
      // Once the server has read the head and started on the body.
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
    socket.on('error', reject);
  });
}

describe('a client that hangs up mid-body', () => {
  it('isLoggedAtInfoWithoutAStack, not as an error nor as the database being away', async () => {
    const cookie = await sessionCookieFor(instance.url, 'hang-up@acme.dev');
    await hangUpMidBody('/api/askAi', cookie);
    // A route under the pages' error handler that reads a body (one no route takes is refused unread: unavailable-page.ts).
    await hangUpMidBody('/auth/logout');

    const hangUps = () =>
      instance.logLines().filter((line) => line.msg === 'the client hung up before its request arrived whole');
    await expect.poll(() => hangUps().length).toBe(2);
    expect(hangUps()).toMatchObject([
      { level: 30, reason: 'aborted' },
      { level: 30, reason: 'aborted' },
    ]);
    const lines = instance.logLines();
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  }, 60_000);
});
