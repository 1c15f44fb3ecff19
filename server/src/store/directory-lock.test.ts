import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryInUseError, lockDirectory } from './directory-lock.js';

let parent: string;
let directory: string;
let lockFile: string;
let holders: ChildProcess[] = [];

beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'directory-lock-'));
  directory = path.join(parent, 'data', 'pglite');
  lockFile = `${directory}.lock`;
  await mkdir(path.dirname(directory), { recursive: true });
});

afterEach(async () => {
  for (const holder of holders) holder.kill('SIGKILL');
  holders = [];
  await rm(parent, { recursive: true, force: true });
});

/** The pid of a process that has run and exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const lockOf = (holder: object) => writeFile(lockFile, `${JSON.stringify(holder)}\n`);

/** Another process that takes the lock through this module and keeps it until it is killed. */
async function anotherProcessHolding(target: string) {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), 'directory-lock.ts');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { lockDirectory } = await import(${JSON.stringify(module)});
       await lockDirectory(${JSON.stringify(target)});
       process.stdout.write('locked');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  holders.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe('lockDirectory', () => {
  it('records who holds the directory, and names no holder once released', async () => {
    const lock = await lockDirectory(directory);

    const holder = JSON.parse(await readFile(lockFile, 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(Date.parse(holder.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    await lock.release();
    expect(await readFile(lockFile, 'utf8')).toBe('');
    const warnings: string[] = [];
    await (await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) })).release();
    expect(warnings).toEqual([]);
  });

  it('refusesASecondHolderInTheSameProcess', async () => {
    const lock = await lockDirectory(directory);

    const second = lockDirectory(directory);

    await expect(second).rejects.toThrow(DirectoryInUseError);
    await expect(second).rejects.toThrow(`in use by process ${process.pid} on ${hostname()}`);
    await lock.release();
  });

  it('refusesWhileAnotherLiveProcessHoldsIt, naming it, and takes it over once that process is killed', async () => {
    const holder = await anotherProcessHolding(directory);

    await expect(lockDirectory(directory)).rejects.toThrow(`in use by process ${holder.pid} on ${hostname()}`);

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const warnings: string[] = [];
    const lock = await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      expect.stringContaining(`from process ${holder.pid} on ${hostname()}, which no longer runs`),
    ]);
    await lock.release();
  });

  it('takesOverALockLeftOnAnotherHost by a process that died (a recreated container on the same volume)', async () => {
    const pid = deadPid();
    await lockOf({ pid, hostname: `old-container-of-${hostname()}`, startedAt: '2026-01-01T00:00:00.000Z' });
    const warnings: string[] = [];

    const lock = await lockDirectory(directory, { onStaleLock: (message) => warnings.push(message) });

    expect(warnings).toEqual([expect.stringContaining(`from process ${pid} on old-container-of-${hostname()}`)]);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    await lock.release();
  });

  it('takesOverALockOfItsOwnPid written by an earlier life (process 1 again in a restarted container)', async () => {
    await lockOf({ pid: process.pid, hostname: hostname(), startedAt: 'earlier' });

    const lock = await lockDirectory(directory);

    expect(JSON.parse(await readFile(lockFile, 'utf8')).startedAt).not.toBe('earlier');
    await lock.release();
  });

  it('takesOverALockFileThatNamesNoProcess', async () => {
    await writeFile(lockFile, 'not json');

    const lock = await lockDirectory(directory);

    expect(JSON.parse(await readFile(lockFile, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });
});
