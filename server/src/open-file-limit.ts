import { readFileSync } from 'node:fs';

/** Where the open-file limit cannot be read (not Linux): half of 1,024, the limit a process most often starts with. */
const unknownLimitConnections = 512;
/** Past this, what idle connections hold in memory matters more than the descriptors they take. */
const mostConnections = 10_000;

/** The soft limit on open files in the text of /proc/self/limits; undefined when it says none or is not there. */
export function openFileLimitIn(limits: string | undefined): number | undefined {
  const soft = /^Max open files\s+(\d+)\s/m.exec(limits ?? '')?.[1];
  return soft === undefined ? undefined : Number(soft);
}

/** This process's soft limit on open files (node raises it to the hard limit as it starts), where Linux says it. */
export function openFileLimit(): number | undefined {
  try {
    return openFileLimitIn(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * MAX_CONNECTIONS when it is not set: half the open-file limit, at most 10,000. A connection may take a second
 * descriptor while it streams a file from disk; the other half is left to what the server cannot do without: the
 * embedded database (which keeps a descriptor per table and index file it has read), a rebuilt site being read, the
 * worker threads, the log and the build watcher.
 */
export function defaultMaxConnections(openFiles: number | undefined): number {
  if (openFiles === undefined) return unknownLimitConnections;
  return Math.max(1, Math.min(mostConnections, Math.floor(openFiles / 2)));
}
