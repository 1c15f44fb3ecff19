/**
 * Run as a child process: `<data directory>` creates a new embedded database there (embedded-database.ts runs it so
 * initdb's memory goes with the child); `--template` makes the template new data directories are copied from, once
 * per install (scripts/build.mjs runs it).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDatabaseDirectory, embeddedDatabaseSettings, embeddedDatabaseTemplate } from './embedded-database.js';

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: initialize-embedded-database <data directory> | --template');
if (target === '--template') {
  if (!existsSync(path.join(embeddedDatabaseTemplate, 'PG_VERSION'))) {
    await createDatabaseDirectory(embeddedDatabaseTemplate);
  }
} else {
  const database = await PGlite.create(target, { postgresqlconf: embeddedDatabaseSettings });
  await database.close();
}
