/// <reference path="./fs-native-extensions.d.ts" />
import { constants } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { tryLock, unlock } from 'fs-native-extensions';

/** Who holds a directory: written into its lock file, read back by whoever finds the lock taken. */
type Holder = { pid: number; hostname: string; startedAt: string };

export type DirectoryLock = { release(): Promise<void> };

/** Another live process holds the directory; the message names it. */
export class DirectoryInUseError extends Error {
  override name = 'DirectoryInUseError';
}

/**
 * Makes `directory` this process's alone, through the file `<directory>.lock`, until `release()`. PGlite has no lock
 * of its own: two servers on one directory both run, and the one that stops last overwrites the other's writes.
 *
 * The lock is the operating system's (an open file description lock, through fs-native-extensions, whose prebuilt
 * add-on needs no compiler), held on the open lock file: it ends with its holder however that ends (killed, out of
 * memory, its container removed), on every host that shares the volume's kernel or a file system with locks (NFS).
 * So a lock left by a process that no longer runs is taken over wherever it ran, and the file's content (process,
 * host, start) only names the holder in the messages; no process id or host name is ever trusted to decide.
 */
export async function lockDirectory(
  directory: string,
  options: { onStaleLock?: (message: string) => void } = {},
): Promise<DirectoryLock> {
  const lockFile = `${directory}.lock`;
  await mkdir(path.dirname(lockFile), { recursive: true, mode: 0o700 });
  // Never unlinked: a file removed while another process has it open would let two processes lock two files.
  const file = await open(lockFile, constants.O_RDWR | constants.O_CREAT, 0o600);
  try {
    const previous = parseHolder(await readWhole(file));
    if (!tryLock(file.fd)) {
      throw new DirectoryInUseError(
        `${directory} is in use by ${previous ? `process ${previous.pid} on ${previous.hostname} (since ${previous.startedAt})` : 'another process'}; ` +
          'stop that server first, or give this one another DATA_DIR',
      );
    }
    const me: Holder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
    await file.truncate(0);
    await file.write(`${JSON.stringify(me)}\n`, 0);
    if (previous) {
      options.onStaleLock?.(
        `took over ${lockFile} from process ${previous.pid} on ${previous.hostname}, which no longer runs (it held it since ${previous.startedAt})`,
      );
    }
    return { release: () => release(file) };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** Empties the file (a stopped server names no holder), then lets the lock go with the file. */
async function release(file: FileHandle) {
  await file.truncate(0).catch(() => {});
  unlock(file.fd);
  await file.close();
}

async function readWhole(file: FileHandle) {
  const { size } = await file.stat();
  const buffer = Buffer.alloc(Math.min(size, 4096));
  const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead).toString('utf8');
}

function parseHolder(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    if (typeof holder.pid !== 'number' || typeof holder.hostname !== 'string') return undefined;
    return { pid: holder.pid, hostname: holder.hostname, startedAt: String(holder.startedAt ?? 'unknown') };
  } catch {
    return undefined;
  }
}
