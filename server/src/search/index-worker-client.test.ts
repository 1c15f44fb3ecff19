import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../test-support/index-and-exit.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

describe('indexSectionsInWorker', () => {
  it('ends its worker once the index is in, so a process run from the sources ends by itself', async () => {
    // Left running, the worker (its loader registered) kept a bench or a script alive until killed.
    const { stdout } = await promisify(execFile)(tsx, [script], { timeout: 25_000 });
    expect(stdout.trim()).toBe('indexed 1');
  });
});
