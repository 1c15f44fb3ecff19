/** Run as a child process by embedded-database.ts: creates a new embedded database in the directory it is given. */
import { PGlite } from '@electric-sql/pglite';
import { embeddedDatabaseSettings } from './embedded-database.js';

const [dataDirectory] = process.argv.slice(2);
if (!dataDirectory) throw new Error('usage: initialize-embedded-database <data directory>');
const database = await PGlite.create(dataDirectory, { postgresqlconf: embeddedDatabaseSettings });
await database.close();
