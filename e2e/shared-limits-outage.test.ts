import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiErrorBody } from '@acme/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../server/test-support/limits.js';
import { copilotClient } from './ask-fixtures';
import { freePort } from './harness';
import { type Instance, startInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server started with a REDIS_URL where no Redis answers: it starts, answers, and still limits each reader
 * in process, with one warning in its log and never a 500.
 */
const questionsPerMinute = 3;
const searchesPerMinute = 4;
const unavailable = 'the limits shared across instances are unavailable (Redis); this instance counts alone meanwhile';
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-limits-outage-'));
let instance: Instance;

beforeAll(async () => {
  const port = await freePort();
  instance = await startInstance({
    port,
    logFile: path.join(workDirectory, 'instance.log'),
    environment: {
      NODE_ENV: 'test',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(workDirectory, 'data'),
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      ASK_REQUESTS_PER_MINUTE: String(questionsPerMinute),
      SEARCH_REQUESTS_PER_MINUTE: String(searchesPerMinute),
      LOG_LEVEL: 'info',
    },
  });
});

afterAll(async () => {
  await instance?.stop('SIGTERM');
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('an instance whose Redis is away', () => {
  it('answers and limits each reader in process, warns once, and never fails a request', async () => {
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
    expect(lines.filter((line) => line.msg === unavailable)).toHaveLength(1);
    expect(lines.filter((line) => typeof line.status === 'number' && line.status >= 500)).toEqual([]);
  });
});
