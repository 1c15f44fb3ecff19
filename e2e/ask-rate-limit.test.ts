import type { ApiErrorBody } from '@acme/contract';
import { describe, expect } from 'vitest';
import { copilotClient, test } from './ask-fixtures';
import { sessionCookieFor } from './sign-in';

/** Dev Copilot's per-reader limit of questions a minute, at its default (20). */

test.override({ serverEnvironment: {}, readerEmail: 'busy@acme.dev' });

const text = 'How do I use WSL?';

/** Asks 20 times (each status), then once more: that answer's status, Retry-After header and error. */
async function askTwentyOneTimes(ask: () => Promise<Response>) {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await ask();
    statuses.push(response.status);
    // Read to the end: a turn's chat takes the next question once this answer is stored.
    await response.text();
  }
  const last = await ask();
  const { error } = (await last.json()) as ApiErrorBody;
  return { statuses, status: last.status, retryAfter: last.headers.get('retry-after'), error };
}

describe('rate limits', () => {
  test('answers 429 with Retry-After past 20 questions a minute for one user', async ({ copilot }) => {
    const { statuses, status, retryAfter, error } = await askTwentyOneTimes(() =>
      copilot.ask({ messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }] }),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(status).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(error).toMatchObject({ code: 'rate_limited:ask', message: expect.stringMatching(/at most 20 a minute/) });
  });

  test('limits the turns of the widget the same way', async ({ server }) => {
    // A reader of its own, so the count starts at zero.
    const chatter = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, 'chatter@acme.dev'));
    const threadId = await chatter.newThread();
    const { statuses, status, retryAfter, error } = await askTwentyOneTimes(() =>
      chatter.turn({ threadId, parentId: null, text }),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(status).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(error).toMatchObject({ code: 'rate_limited:ask', message: expect.stringMatching(/at most 20 a minute/) });
  });

  test('counts askAi calls and turns together: one limit of questions per reader', async ({ server }) => {
    const mixer = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, 'mixer@acme.dev'));
    const threadId = await mixer.newThread();
    let asked = 0;
    const { statuses, status, error } = await askTwentyOneTimes(() =>
      asked++ % 2 === 0
        ? mixer.ask({ messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }] })
        : mixer.turn({ threadId, parentId: null, text }),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(status).toBe(429);
    expect(error.code).toBe('rate_limited:ask');
  });
});
