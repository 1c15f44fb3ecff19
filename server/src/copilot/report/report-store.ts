import { access, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { openStore, type Store } from '../../store/database.js';
import { describeError } from '../../store/describe-error.js';

/** The report could not get at the data; the CLI prints the message and exits with code 1. */
export class ReportStoreError extends Error {
  override name = 'ReportStoreError';
}

/**
 * Opens the server's data for reading the report. PostgreSQL serves any number of clients. PGlite is one embedded
 * process with no lock on its directory: a second process opening the directory the server holds can leave it
 * unreadable (seen here: "Aborted()" on every later open). So the report never opens it: it copies the directory and
 * reads the copy, which is thrown away on close. The server's files are only read.
 */
export async function openReportStore(config: Pick<Config, 'databaseUrl' | 'dataDirectory'>): Promise<Store> {
  // A report is a reader: it never migrates the database a running server owns, whatever version it is run from.
  if (config.databaseUrl) {
    return requireQuestionsLog(
      await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory, migrate: false }),
    );
  }
  const live = path.join(config.dataDirectory, 'pglite');
  try {
    await access(path.join(live, 'PG_VERSION'));
  } catch {
    throw new ReportStoreError(
      `There is no Dev Copilot database in ${live}. Run the report with the server's DATA_DIR (or DATABASE_URL).`,
    );
  }
  const copyParent = await mkdtemp(path.join(tmpdir(), 'copilot-report-'));
  const copy = path.join(copyParent, 'pglite');
  const removeCopy = () => rm(copyParent, { recursive: true, force: true });
  try {
    await cp(live, copy, { recursive: true });
    const store = await requireQuestionsLog(await openStore({ dataDirectory: copy, migrate: false }));
    return {
      ...store,
      close: async () => {
        await store.close();
        await removeCopy();
      },
    };
  } catch (error) {
    await removeCopy();
    throw new ReportStoreError(
      `Could not read a copy of the PGlite database in ${live} (${describeError(error)}). If the server is running it ` +
        'may have been writing while the copy was made: run the report again, stop the server first, or use ' +
        "PostgreSQL (DATABASE_URL). The server's data was not touched.",
    );
  }
}

/** The report needs the questions log, added by migration 0002; an older database gets a clear message. */
async function requireQuestionsLog(store: Store): Promise<Store> {
  const result = await store.db.execute(sql`select to_regclass('public.questions') is not null as present`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ present: boolean }>;
  if (rows[0]?.present) return store;
  await store.close();
  throw new ReportStoreError(
    'This database has no questions log yet: start the server of this version once (it migrates the database), then run the report again.',
  );
}
