import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** What another local user may not do to anything under DATA_DIR: read, write or enter it. */
const groupAndOthers = 0o077;

/** The process's file-creation mask: folders 0700 and files 0600 from here on, PGlite's own files included. */
export const privateUmask = groupAndOthers;

export type Tightened = {
  /** Files and folders that were open to other users and are not any more. */
  tightened: string[];
  /** Those whose permissions could not be changed (another user's file, say), with why. */
  failed: Array<{ path: string; reason: string }>;
};

/**
 * Takes every permission of group and others off `root` and everything under it (folders 0700, files 0600 as PGlite
 * and the secrets are written), without following links: the embedded database's files hold readers' questions and
 * e-mail addresses. PGlite's template is written with 0666 files, and `cp` keeps a source's modes whatever the umask.
 */
export async function makePrivate(root: string): Promise<Tightened> {
  const result: Tightened = { tightened: [], failed: [] };
  const visit = async (entry: string) => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & groupAndOthers) !== 0) {
      try {
        await chmod(entry, stats.mode & 0o700);
        result.tightened.push(entry);
      } catch (error) {
        result.failed.push({ path: entry, reason: (error as Error).message });
      }
    }
    if (stats.isDirectory()) {
      for (const name of await readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(root);
  return result;
}

/**
 * DATA_DIR as the server leaves it on start: nobody's but its own user's. A folder made looser by hand, a backup
 * restored with its modes, or a database from a release that copied the template as it was, is tightened, and the
 * operator is told (it may have been read meanwhile). A DATA_DIR that does not exist yet is left to be made.
 */
export async function keepDataDirectoryPrivate(
  dataDirectory: string,
  log: { warn(message: string): void },
): Promise<void> {
  try {
    await lstat(dataDirectory);
  } catch {
    return;
  }
  const { tightened, failed } = await makePrivate(dataDirectory);
  if (tightened.length > 0) {
    log.warn(
      `DATA_DIR ${dataDirectory} was open to other local users (${tightened.length} files and folders, e.g. ` +
        `${tightened[0]}); they are now its owner's only (folders 0700, files 0600). Whatever they held may have ` +
        'been read meanwhile.',
    );
  }
  for (const { path: entry, reason } of failed) {
    log.warn(`DATA_DIR: ${entry} is open to other local users and could not be made private: ${reason}`);
  }
}
