import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createDatabaseDirectory,
  embeddedDatabaseArchive,
  embeddedDatabaseSettings,
  inMemoryDataDirectory,
  openEmbeddedDatabase,
} from './embedded-database.js';

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

  it("removes the half-made copies of starts that ended while creating it, and leaves a running start's", async () => {
    const dataDirectory = path.join(workDirectory, 'restarted', 'pglite');
    const abandoned = `${dataDirectory}.initializing-2147483646`;
    const running = `${dataDirectory}.initializing-${process.ppid}`;
    const unrelated = `${dataDirectory}.initializing-notes`;
    for (const directory of [abandoned, running, unrelated]) {
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, 'PG_VERSION'), '17');
    }
    await createDatabaseDirectory(dataDirectory, { template });
    const database = await openEmbeddedDatabase(dataDirectory);
    await database.close();
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  }, 60_000);
});

describe('an in-memory embedded database', () => {
  it("is loaded from the build's archive of the empty database, with the embedded settings, and starts empty", async () => {
    expect(existsSync(embeddedDatabaseArchive)).toBe(true);
    const creating = vi.spyOn(PGlite, 'create');

    const database = await openEmbeddedDatabase(inMemoryDataDirectory);
    // Made from the archive, at the first try: initdb (a create without `loadDataDir`) never ran.
    expect(creating.mock.calls.map(([, options]) => 'loadDataDir' in (options ?? {}))).toEqual([true]);
    creating.mockRestore();
    const first = await database.query<{ shared_buffers: string }>('show shared_buffers');
    await database.exec('create table notes (body text)');
    await database.close();
    const second = await openEmbeddedDatabase(inMemoryDataDirectory);
    const tables = await second.query("select 1 from pg_tables where tablename = 'notes'");
    await second.close();

    expect(first.rows).toEqual([{ shared_buffers: '4MB' }]);
    expect(tables.rows).toHaveLength(0);
  });
});
