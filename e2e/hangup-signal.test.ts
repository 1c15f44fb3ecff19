import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { type Instance, startTestInstance } from './instance-process';

/**
 * SIGHUP (the terminal the server ran in closed, a supervisor asking it to stop) drains like SIGTERM and SIGINT.
 * Before the fix it killed the process at once: exit 129, neither "shutting down" nor "stopped" in the log.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-hangup-'));
let instance: Instance | undefined;

afterEach(async () => {
  await instance?.stop('SIGKILL');
});

afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

it('drainsOnSighup: exits with 0 and logs that it stopped', async () => {
  instance = await startTestInstance(workDirectory);

  expect(await instance.stop('SIGHUP')).toBe(0);
  const messages = instance.logLines().map((line) => line.msg);
  expect(messages).toContain('shutting down');
  expect(messages).toContain('stopped');
}, 60_000);
