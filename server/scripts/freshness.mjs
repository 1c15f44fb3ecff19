import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time (ms) of a file, or of a directory and everything under it; 0 when missing. */
export function newestModification(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, child) => Math.max(newest, newestModification(path.join(entry, child))),
    stats.mtimeMs,
  );
}

/** True when `output` is missing or any of `sources` changed after it was written. */
export function isStale(output, sources) {
  const writtenAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  return writtenAt === 0 || Math.max(...sources.map(newestModification)) > writtenAt;
}
