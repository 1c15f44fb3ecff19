import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';

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

/**
 * Opens the embedded database in `dataDirectory`, creating it first when there is none. Creating one (initdb) leaves
 * PGlite's process hundreds of megabytes larger for good, so it runs in a short-lived child process whose memory goes
 * when it exits; the server then opens the finished directory, which costs a fraction of that.
 */
export async function openEmbeddedDatabase(dataDirectory: string): Promise<PGlite> {
  if (dataDirectory !== inMemoryDataDirectory && !existsSync(path.join(dataDirectory, 'PG_VERSION'))) {
    await createInChildProcess(dataDirectory);
  }
  return PGlite.create(dataDirectory, { postgresqlconf: embeddedDatabaseSettings });
}

/**
 * The child writes a sibling directory and it is renamed into place only once complete, so a crash half-way through
 * leaves no half-made database for the next start to trip over.
 */
async function createInChildProcess(dataDirectory: string): Promise<void> {
  await mkdir(path.dirname(dataDirectory), { recursive: true });
  if (existsSync(dataDirectory)) {
    if ((await readdir(dataDirectory)).length > 0) {
      throw new Error(`${dataDirectory} holds files but no database (no PG_VERSION); move them away and start again`);
    }
    await rm(dataDirectory, { recursive: true });
  }
  const unfinished = `${dataDirectory}.initializing-${process.pid}`;
  await rm(unfinished, { recursive: true, force: true });
  const nodeArguments = compiled ? [initializerScript] : ['--import', 'tsx', initializerScript];
  try {
    await promisify(execFile)(process.execPath, [...nodeArguments, unfinished], { timeout: 120_000 });
  } catch (error) {
    await rm(unfinished, { recursive: true, force: true });
    const { stderr } = error as { stderr?: string };
    throw new Error(`creating the database failed: ${stderr?.trim() || (error as Error).message}`, { cause: error });
  }
  await rename(unfinished, dataDirectory);
}
