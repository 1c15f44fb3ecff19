import { request as httpRequest } from 'node:http';
import type { ApiErrorBody } from '@acme/contract';
import { expect } from 'vitest';
import { test } from './ask-fixtures';

/**
 * A reader's question bodies (up to 32 MB each) are read only while they have at most ASK_CONCURRENT_PER_USER (2)
 * questions being read or answered: with three bodies arriving, a fourth is refused before a byte of it is read.
 */

/** Starts a question whose body is announced at 20 MB and sent a few bytes at a time: it stays being read. */
function slowQuestion(baseUrl: string, cookie: string, path: string) {
  const url = new URL(path, baseUrl);
  const started = httpRequest(url, {
    method: 'POST',
    headers: {
      cookie,
      origin: baseUrl,
      'content-type': 'application/json',
      'content-length': String(20 * 1024 * 1024),
    },
  });
  const answered = new Promise<number>((resolve) => {
    started.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    // A question stopped here ends with its socket: no status.
    started.on('error', () => resolve(0));
  });
  started.write('{"messages":[{"role":"user","content":[{"type":"text","text":"');
  return { answered, stop: () => started.destroy() };
}

test('refuses a fourth question of one reader before reading its body while three bodies are still arriving', async ({
  server,
  sessionCookie,
  copilot,
}) => {
  const first = slowQuestion(server.baseUrl, sessionCookie, '/api/askAi');
  const second = slowQuestion(server.baseUrl, sessionCookie, '/api/turns');
  const third = slowQuestion(server.baseUrl, sessionCookie, '/api/askAi');
  // All three have reached the server (its hooks run on the headers); none is answered while its body is incomplete.
  await new Promise((resolve) => setTimeout(resolve, 300));

  const fourth = slowQuestion(server.baseUrl, sessionCookie, '/api/askAi');
  expect(await fourth.answered).toBe(429);
  fourth.stop();
  const refused = await copilot.ask({ messages: [{ role: 'user', content: [{ type: 'text', text: 'TTL?' }] }] });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(((await refused.json()) as ApiErrorBody).error.code).toBe('rate_limited:concurrent');

  // The bodies that never came give their places back when their callers go away.
  first.stop();
  second.stop();
  third.stop();
  await expect
    .poll(async () => {
      const asked = await copilot.ask({ messages: [{ role: 'user', content: [{ type: 'text', text: 'TTL?' }] }] });
      await asked.text();
      return asked.status;
    })
    .toBe(200);
});
