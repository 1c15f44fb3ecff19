import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiErrorBody } from '@acme/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrlIgnored } from '../server/src/limits/limits-plugin.js';
import { copilotClient } from './ask-fixtures';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server started with the REDIS_URL of an older deployment (Redis kept the limits until PostgreSQL was
 * shown to hold them): it starts, says once that the variable is ignored, and limits each reader as without it.
 */
const questionsPerMinute = 3;
const searchesPerMinute = 4;
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-limits-outage-'));
let instance: Instance;

beforeAll(async () => {
  instance = await startTestInstance(workDirectory, {
    // Nothing answers there, and nothing tries: the server never connects to it.
    REDIS_URL: 'redis://127.0.0.1:9/0',
    ASK_REQUESTS_PER_MINUTE: String(questionsPerMinute),
    SEARCH_REQUESTS_PER_MINUTE: String(searchesPerMinute),
    LOG_LEVEL: 'info',
  });
});

afterAll(async () => {
  await instance?.stop('SIGTERM');
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('an instance still given REDIS_URL', () => {
  it('warns once that it is ignored, answers and limits each reader, and never fails a request', async () => {
    const cookie = await sessionCookieFor(instance.url, 'alone@acme.dev');
    const copilot = copilotClient(instance.url, cookie);
    const ask = () =>
      copilot.ask({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I use WSL?' }], attachments: [] }],
      });
    const asked = [];
    for (let question = 0; question <= questionsPerMinute; question++) {
      const response = await ask();
      asked.push({ status: response.status, body: await response.text() });
    }
    expect(asked.map((response) => response.status)).toEqual([...Array(questionsPerMinute).fill(200), 429]);
    expect((JSON.parse(asked.at(-1)?.body ?? '{}') as ApiErrorBody).error.code).toBe('rate_limited:ask');

    const searched = [];
    for (let search = 0; search <= searchesPerMinute; search++) {
      const response = await fetch(`${instance.url}/api/search?q=ttl`, { headers: { cookie } });
      searched.push(response.status);
      await response.arrayBuffer();
    }
    expect(searched).toEqual([...Array(searchesPerMinute).fill(200), 429]);

    // The log is written asynchronously: wait for the last request's line.
    await expect
      .poll(() => instance.logLines().filter((line) => line.path === '/api/search' && line.status === 429).length)
      .toBe(1);
    const lines = instance.logLines();
    expect(lines.filter((line) => line.level === 40)).toMatchObject([{ msg: redisUrlIgnored, variable: 'REDIS_URL' }]);
    expect(lines.filter((line) => typeof line.status === 'number' && line.status >= 500)).toEqual([]);
  });
});
