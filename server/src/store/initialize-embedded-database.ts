/**
 * Run as a child process: `<data directory>` creates a new embedded database there (embedded-database.ts runs it so
 * initdb's memory goes with the child); `--template` makes the template new data directories are copied from, once
 * per install (scripts/build.mjs runs it).
 */
import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  createDatabaseDirectory,
  embeddedDatabaseArchive,
  embeddedDatabaseSettings,
  embeddedDatabaseTemplate,
  inMemoryDataDirectory,
} from './embedded-database.js';

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: initialize-embedded-database <data directory> | --template');
if (target === '--template') {
  if (!existsSync(path.join(embeddedDatabaseTemplate, 'PG_VERSION'))) {
    await createDatabaseDirectory(embeddedDatabaseTemplate);
  }
  if (!existsSync(embeddedDatabaseArchive)) {
    const database = await PGlite.create(inMemoryDataDirectory, { postgresqlconf: embeddedDatabaseSettings });
    const archive = Buffer.from(await (await database.dumpDataDir('none')).arrayBuffer());
    await database.close();
    // Written whole under another name first: an archive cut short by a stopped build is never loaded.
    const unfinished = `${embeddedDatabaseArchive}.writing-${process.pid}`;
    await writeFile(unfinished, archive, { mode: 0o600 });
    await rename(unfinished, embeddedDatabaseArchive);
  }
} else {
  const database = await PGlite.create(target, { postgresqlconf: embeddedDatabaseSettings });
  await database.close();
}
