import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { serverDirectory } from '../server-directory.js';
import { makePrivate } from './private-files.js';
import { PrivateNodeFilesystem } from './private-node-filesystem.js';

/**
 * PostgreSQL settings for one small server's embedded database. PGlite's defaults size shared buffers for a
 * dedicated database host (128 MB, all of it touched in WebAssembly memory); our tables are small and the operating
 * system caches their files anyway, so a few megabytes keep a hot working set (measured: about 120 MB less resident).
 */
export const embeddedDatabaseSettings = ['shared_buffers = 4MB', 'temp_buffers = 1MB', 'work_mem = 2MB'];

export const inMemoryDataDirectory = 'memory://';

const compiled = !import.meta.url.endsWith('.ts');
const initializerScript = fileURLToPath(
  new URL(compiled ? './initialize-embedded-database.js' : './initialize-embedded-database.ts', import.meta.url),
);

/** The PGlite release installed: a template made by another release is not used. */
function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let directory = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(directory, 'package.json'))) directory = path.dirname(directory);
  return JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')).version;
}

/**
 * An empty database made once per install by `npm run build` (scripts/build.mjs) and copied for each new data
 * directory: a copy of its 40 MB takes a tenth of a second, initdb about two seconds. Without it, initdb runs.
 */
export const embeddedDatabaseTemplate = path.join(serverDirectory, '.cache', `embedded-database-${pgliteVersion()}`);

/**
 * The same empty database as one archive (PGlite's `dumpDataDir`), made beside the template, for in-memory databases
 * (the tests open dozens): loading it took 1.1-1.5 s on a loaded machine where initdb took 7.6 s, and leaves none of
 * initdb's memory behind. Without it, or when it does not load, initdb runs.
 */
export const embeddedDatabaseArchive = `${embeddedDatabaseTemplate}.tar`;

async function openInMemory(): Promise<PGlite> {
  const archive = await readFile(embeddedDatabaseArchive).catch(() => undefined);
  if (archive) {
    const loaded = await PGlite.create(inMemoryDataDirectory, {
      postgresqlconf: embeddedDatabaseSettings,
      loadDataDir: new Blob([archive]),
    }).catch(() => undefined);
    if (loaded) return loaded;
  }
  return PGlite.create(inMemoryDataDirectory, { postgresqlconf: embeddedDatabaseSettings });
}

/**
 * Opens the embedded database in `dataDirectory`, creating it first when there is none: a copy of the template when
 * there is one, otherwise initdb. initdb leaves PGlite's process hundreds of megabytes larger for good, so it runs in
 * a short-lived child process whose memory goes when it exits; the server then opens the finished directory, which
 * costs a fraction of that.
 */
export async function openEmbeddedDatabase(dataDirectory: string): Promise<PGlite> {
  if (dataDirectory !== inMemoryDataDirectory) await removeAbandonedCopies(dataDirectory);
  if (dataDirectory !== inMemoryDataDirectory && !existsSync(path.join(dataDirectory, 'PG_VERSION'))) {
    await createDatabaseDirectory(dataDirectory, { template: embeddedDatabaseTemplate });
  }
  if (dataDirectory === inMemoryDataDirectory) return openInMemory();
  try {
    return await PGlite.create({
      fs: new PrivateNodeFilesystem(dataDirectory),
      postgresqlconf: embeddedDatabaseSettings,
    });
  } catch (error) {
    if (outOfResources(error)) throw error;
    const theirs = majorVersionIn(dataDirectory);
    const ours = majorVersionIn(embeddedDatabaseTemplate);
    if (theirs && ours && theirs !== ours) {
      throw new Error(
        `${dataDirectory} was made by PostgreSQL ${theirs}, not this release's PostgreSQL ${ours}: open it with the ` +
          'release that made it.',
        { cause: error },
      );
    }
    throw new DamagedDatabaseError(dataDirectory, error);
  }
}

/** PG_VERSION's major version, when it holds one: a directory of another major version is whole, not damaged. */
function majorVersionIn(directory: string): string | undefined {
  try {
    const version = readFileSync(path.join(directory, 'PG_VERSION'), 'utf8').trim();
    return /^\d+$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The embedded database's files could not be opened as a database: PGlite says only "Aborted()" (a damaged write-ahead
 * log) or "failed to initialize properly" (a damaged pg_control, relation file or PG_VERSION), so the message says
 * what happened and the two ways out; PGlite's own words stay in the cause.
 */
export class DamagedDatabaseError extends Error {
  constructor(dataDirectory: string, cause: unknown) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    const why = typeof code === 'string' ? ` (${code})` : '';
    super(
      `The embedded database in ${dataDirectory} is damaged or unreadable${why}. Restore DATA_DIR from a backup (a ` +
        `copy made with the server stopped, README "Backups"), or move ${dataDirectory} aside to start with an empty ` +
        'database, losing every session and chat it held.',
      { cause },
    );
    this.name = 'DamagedDatabaseError';
  }
}

/** A start that ran out of memory, disk or file handles proves nothing about the files: its own error says more. */
function outOfResources(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && ['ENOMEM', 'ENOSPC', 'EMFILE', 'ENFILE'].includes(code)) return true;
  return error instanceof RangeError || /\bOOM\b|out of memory/i.test((error as Error)?.message ?? '');
}

/** Whether a process with this id runs on this machine (one we may not signal runs too). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the half-made copies (`<data>.initializing-<pid>`, 25 MB and more) of starts that were stopped or failed
 * while creating the database (SIGTERM, a full disk): each start removed only its own, so a supervisor restarting a
 * failing first start piled them up for good. A copy whose process still runs is another start's, and left alone.
 */
async function removeAbandonedCopies(dataDirectory: string) {
  const parent = path.dirname(dataDirectory);
  const prefix = `${path.basename(dataDirectory)}.initializing-`;
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : Number.NaN;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isRunning(pid)) {
      await rm(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/**
 * Writes a new database into a sibling directory, from `template` when it holds one, else by initdb in a child
 * process, and renames it into place only once complete, so a crash half-way through leaves no half-made database
 * for the next start to trip over.
 */
export async function createDatabaseDirectory(dataDirectory: string, { template }: { template?: string } = {}) {
  await mkdir(path.dirname(dataDirectory), { recursive: true, mode: 0o700 });
  if (existsSync(dataDirectory)) {
    if ((await readdir(dataDirectory)).length > 0) {
      throw new Error(`${dataDirectory} holds files but no database (no PG_VERSION); move them away and start again`);
    }
    await rm(dataDirectory, { recursive: true });
  }
  const unfinished = `${dataDirectory}.initializing-${process.pid}`;
  await rm(unfinished, { recursive: true, force: true });
  if (template && existsSync(path.join(template, 'PG_VERSION'))) {
    await cp(template, unfinished, { recursive: true });
    await makePrivate(unfinished);
    await rename(unfinished, dataDirectory);
    return;
  }
  const nodeArguments = compiled ? [initializerScript] : ['--import', 'tsx', initializerScript];
  try {
    await promisify(execFile)(process.execPath, [...nodeArguments, unfinished], { timeout: 120_000 });
  } catch (error) {
    await rm(unfinished, { recursive: true, force: true });
    const { stderr } = error as { stderr?: string };
    throw new Error(`creating the database failed: ${stderr?.trim() || (error as Error).message}`, { cause: error });
  }
  await makePrivate(unfinished);
  await rename(unfinished, dataDirectory);
}
