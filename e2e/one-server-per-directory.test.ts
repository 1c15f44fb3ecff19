import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server on the embedded database: one server per DATA_DIR. A second one refuses to start and names the
 * process holding the directory; the lock of a server killed with SIGKILL is taken over, with a warning.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-one-server-'));
const dataDirectory = path.join(workDirectory, 'data');
const lockFile = path.join(dataDirectory, 'pglite.lock');
const instances: Instance[] = [];

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  rmSync(workDirectory, { recursive: true, force: true });
});

async function startOn(name: string) {
  const instance = await startTestInstance(
    workDirectory,
    {
      DATA_DIR: dataDirectory,
      // One secret for every start: the reader's cookie is honoured by the server that takes over.
      SESSION_SECRET: 'one-secret-for-every-start-on-this-directory',
    },
    { name },
  );
  instances.push(instance);
  return instance;
}

describe('two servers on one PGlite DATA_DIR', () => {
  it('refusesTheSecondServer, naming the process that holds the directory; takes over after a SIGKILL', async () => {
    const first = await startOn('first');
    const cookie = await sessionCookieFor(first.url, 'lock@acme.dev');
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(first.pid);

    const second = startOn('second');
    await expect(second).rejects.toThrow(/the instance exited with 1/);
    await expect(second).rejects.toThrow(`in use by process ${first.pid}`);
    // The first server never noticed: it still serves its reader.
    const page = await fetch(`${first.url}/firestore-ttl`, { headers: { cookie } });
    expect(page.status).toBe(200);

    expect(await first.stop('SIGKILL')).toBeNull();
    const third = await startOn('third');
    const warnings = third
      .logLines()
      .filter((line) => line.level === 40)
      .map((line) => String(line.msg));
    expect(warnings).toEqual([expect.stringMatching(`from process ${first.pid} on .+, which no longer runs`)]);
    // Same directory, same data: the reader's session is there.
    expect((await fetch(`${third.url}/firestore-ttl`, { headers: { cookie } })).status).toBe(200);

    expect(await third.stop('SIGTERM')).toBe(0);
    // A clean stop leaves the file naming no holder (it is never removed: see directory-lock.ts).
    expect(readFileSync(lockFile, 'utf8')).toBe('');
  }, 120_000);
});
