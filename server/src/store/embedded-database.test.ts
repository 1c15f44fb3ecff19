import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabaseDirectory, embeddedDatabaseSettings } from './embedded-database.js';

const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-embedded-database-'));
afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

describe('a new embedded data directory', () => {
  const template = path.join(workDirectory, 'template');

  it('is made by initdb when there is no template, and copied from the template when there is', async () => {
    await createDatabaseDirectory(template);
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    // A marker only a copy of this template can carry: initdb would never write it.
    writeFileSync(path.join(template, 'made-from-template'), 'yes');

    const dataDirectory = path.join(workDirectory, 'data', 'pglite');
    await createDatabaseDirectory(dataDirectory, { template });
    expect(readFileSync(path.join(dataDirectory, 'made-from-template'), 'utf8')).toBe('yes');
    const database = await PGlite.create(dataDirectory, { postgresqlconf: embeddedDatabaseSettings });
    await database.exec('create table notes (body text); insert into notes values ($$kept$$);');
    expect((await database.query<{ body: string }>('select body from notes')).rows).toEqual([{ body: 'kept' }]);
    await database.close();
    // The template itself is left as it was.
    const templateDatabase = await PGlite.create(template, { postgresqlconf: embeddedDatabaseSettings });
    const tables = await templateDatabase.query("select 1 from pg_tables where tablename = 'notes'");
    expect(tables.rows).toHaveLength(0);
    await templateDatabase.close();
  }, 60_000);

  it('refuses a directory that holds other files, and leaves them alone', async () => {
    const occupied = path.join(workDirectory, 'occupied');
    await createDatabaseDirectory(path.join(occupied, 'unrelated-sibling'), { template });
    writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    await expect(createDatabaseDirectory(occupied, { template })).rejects.toThrow(/holds files but no database/);
    expect(readFileSync(path.join(occupied, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
