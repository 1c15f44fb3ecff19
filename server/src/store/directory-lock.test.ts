import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryInUseError, lockDirectory } from './directory-lock.js';

let parent: string;
let directory: string;
let lockFile: string;

beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'directory-lock-'));
  directory = path.join(parent, 'data', 'pglite');
  lockFile = `${directory}.lock`;
  await mkdir(path.dirname(directory), { recursive: true });
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** The pid of a process that has run and exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const lockOf = (holder: object) => writeFile(lockFile, `${JSON.stringify(holder)}\n`);

describe('lockDirectory', () => {
  it('records who holds the directory, and removes the lock on release', async () => {
    const lock = await lockDirectory(directory);

    const holder = JSON.parse(await readFile(lockFile, 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(Date.parse(holder.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
    await (await lockDirectory(directory)).release();
  });

  it('refusesASecondHolderAndNamesTheFirst', async () => {
    const lock = await lockDirectory(directory);

    const second = lockDirectory(directory);

    await expect(second).rejects.toThrow(DirectoryInUseError);
    await expect(second).rejects.toThrow(`in use by process ${process.pid} on ${hostname()}`);
    await lock.release();
  });

  it('takesOverALockWhoseProcessNoLongerRuns, saying whose it was', async () => {
    const pid = deadPid();
    await lockOf({ pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z' });
    const warnings: string[] = [];

    const lock = await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) });

    expect(warnings).toEqual([expect.stringContaining(`from process ${pid}, which no longer runs`)]);
    expect(JSON.parse(await readFile(lockFile, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it.runIf(process.platform === 'linux')(
    'takesOverALockOfAReusedPid: started at another time (a restarted container)',
    async () => {
      await lockOf({ pid: process.pid, hostname: hostname(), startedAt: 'earlier', processStart: 'another-boot:1' });
      const warnings: string[] = [];

      const lock = await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) });

      expect(warnings).toEqual([expect.stringContaining(`from process ${process.pid}, which no longer runs`)]);
      await lock.release();
    },
  );

  it('takesOverALockThatNamesNoProcess', async () => {
    await writeFile(lockFile, 'not json');
    const warnings: string[] = [];

    const lock = await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) });

    expect(warnings).toEqual([expect.stringContaining('which names no process')]);
    await lock.release();
  });

  it('refusesALockHeldOnAnotherHost, whose process it cannot see', async () => {
    await lockOf({ pid: deadPid(), hostname: `not-${hostname()}`, startedAt: '2026-01-01T00:00:00.000Z' });

    await expect(lockDirectory(directory)).rejects.toThrow(`on not-${hostname()}`);
    expect(existsSync(lockFile)).toBe(true);
  });

  it('leavesALockTakenOverByAnotherProcess when released', async () => {
    const lock = await lockDirectory(directory);
    await lockOf({ pid: process.pid + 1, hostname: hostname(), startedAt: 'later' });

    await lock.release();

    expect(JSON.parse(await readFile(lockFile, 'utf8')).startedAt).toBe('later');
  });
});
