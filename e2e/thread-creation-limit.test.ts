import type { ApiErrorBody } from '@acme/contract';
import { expect } from 'vitest';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { readerApi } from './threads-api';

/** New chats count against a limit a minute per reader (THREAD_CREATIONS_PER_MINUTE), set low here. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', THREAD_CREATIONS_PER_MINUTE: '3' } });

test('refusesANewChatPastTheLimitWithRetryAfterAndLeavesReadingAndOtherReadersAlone', async ({ server }) => {
  const scripted = readerApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'script@acme.dev'));
  const made = [await scripted.newThread(), await scripted.newThread(), await scripted.newThread()];
  const refused = await scripted.call('POST', '/api/threads', {});
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const { error } = (await refused.json()) as ApiErrorBody;
  expect(error).toMatchObject({ code: 'rate_limited:threads', message: expect.stringMatching(/at most 3 a minute/) });

  const list = await scripted.call('GET', '/api/threads');
  expect(list.status).toBe(200);
  const listed = ((await list.json()) as { threads: Array<{ id: string }> }).threads.map((thread) => thread.id);
  expect(listed.sort()).toEqual([...made].sort());
  expect((await scripted.call('PATCH', `/api/threads/${made[0]}`, { title: 'renamed' })).status).toBe(200);

  const colleague = readerApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'colleague@acme.dev'));
  expect(await colleague.newThread()).toMatch(/\S/);
});
