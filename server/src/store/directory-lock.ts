import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** Who holds a directory: written into its lock file, read back by whoever finds the lock taken. */
type Holder = { pid: number; hostname: string; startedAt: string; processStart?: string | undefined };

export type DirectoryLock = { release(): Promise<void> };

/** Another live process holds the directory; the message names it. */
export class DirectoryInUseError extends Error {
  override name = 'DirectoryInUseError';
}

/**
 * Makes `directory` this process's alone, through the file `<directory>.lock`, until `release()`. PGlite has no lock
 * of its own: two servers on one directory both run, and the one that stops last overwrites the other's writes.
 *
 * Our own, about sixty lines, rather than proper-lockfile: that library decides a lock is stale by its age, refreshed
 * on a timer by the holder (a crashed server blocks starts until it ages; a paused one loses its lock), and records no
 * owner to name. Here the lock records its process, and on one host whether that process still runs is known exactly:
 * a lock whose process is gone (killed, crashed) is taken over, with `onStaleLock` told whose it was.
 */
export async function lockDirectory(
  directory: string,
  options: { onStaleLock?: (message: string) => void } = {},
): Promise<DirectoryLock> {
  const lockFile = `${directory}.lock`;
  await mkdir(path.dirname(lockFile), { recursive: true });
  const me: Holder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    processStart: processStart(process.pid),
  };
  // Written whole elsewhere, then linked into place: a link fails when the lock exists, and a lock never exists
  // half-written for another starter to misread.
  const draft = `${lockFile}.${process.pid}.${Date.now()}`;
  await writeFile(draft, `${JSON.stringify(me)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        await link(draft, lockFile);
        return { release: () => releaseIfMine(lockFile, me) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = await readFile(lockFile, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const holder = parseHolder(text);
      if (holder && isAlive(holder)) {
        throw new DirectoryInUseError(
          `${directory} is in use by process ${holder.pid} on ${holder.hostname} (since ${holder.startedAt}); ` +
            `stop that server first, or give this one another DATA_DIR. If no such process runs there, delete ${lockFile}`,
        );
      }
      // Another starter may take the same stale lock over at the same moment: the file is removed only while it still
      // holds what was read, which leaves a window of microseconds (PostgreSQL's own postmaster.pid has the same).
      if ((await readFile(lockFile, 'utf8').catch(() => undefined)) !== text) continue;
      await unlink(lockFile).catch(() => {});
      options.onStaleLock?.(
        holder
          ? `took over ${lockFile} from process ${holder.pid}, which no longer runs (it held it since ${holder.startedAt})`
          : `took over ${lockFile}, which names no process`,
      );
    }
    throw new DirectoryInUseError(`${directory} is being locked by other processes at the same time; start again`);
  } finally {
    await unlink(draft).catch(() => {});
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    if (typeof holder.pid !== 'number' || typeof holder.hostname !== 'string') return undefined;
    return { ...holder, pid: holder.pid, hostname: holder.hostname, startedAt: String(holder.startedAt ?? 'unknown') };
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder still runs. On another host (a shared volume) that cannot be told, so it counts as running. A pid
 * can be reused, in a container even by ourselves (process 1 again after a restart): where /proc tells when a process
 * started, a different start means a different process. A zombie (killed, not yet reaped) runs no more.
 */
function isAlive(holder: Holder): boolean {
  if (holder.hostname !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const found = readProcess(holder.pid);
  if (!found) return true;
  return found.state !== 'Z' && (holder.processStart === undefined || found.start === holder.processStart);
}

const processStart = (pid: number) => readProcess(pid)?.start;

/** A process's state and when it started (boot id and clock ticks since boot), on Linux; undefined elsewhere. */
function readProcess(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces: state, ..., starttime (22nd).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return { state: fields[0] ?? '', start: `${bootId}:${fields[19]}` };
  } catch {
    return undefined;
  }
}

async function releaseIfMine(lockFile: string, me: Holder) {
  const holder = parseHolder(await readFile(lockFile, 'utf8').catch(() => ''));
  if (holder?.pid === me.pid && holder.startedAt === me.startedAt) await unlink(lockFile).catch(() => {});
}
