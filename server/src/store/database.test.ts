import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { bigint, pgSchema, serial, text } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryTestDatabase,
  createPostgresTestDatabase,
  type TestDatabase,
  testBackends,
} from '../../test-support/test-databases.js';
import { type Database, inMemoryDataDirectory, openStore, type Store } from './database.js';
import { sessions } from './schema.js';
import { createSession, findSessionByIdHash } from './sessions.js';

/** Drizzle's own bookkeeping: one row per applied migration. */
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id').primaryKey(),
  hash: text('hash').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }),
});

const journal: { entries: unknown[] } = JSON.parse(
  await readFile(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
);

async function countAppliedMigrations(db: Database): Promise<number> {
  return (await db.select().from(appliedMigrations)).length;
}

const session = {
  idHash: 'h1',
  issuer: 'https://accounts.acme.example',
  subject: 'ada',
  email: 'ada@acme.example',
  emailVerified: true,
  hostedDomain: null,
  name: null,
  expiresAt: new Date('2031-01-01T00:00:00.000Z'),
};

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`openStore on ${backend.name}`, () => {
    let database: TestDatabase;
    const opened: Store[] = [];

    beforeAll(async () => {
      database = await backend.create();
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    afterAll(async () => {
      await database?.drop();
    });

    async function open(): Promise<Store> {
      const store = await openStore(database.options);
      opened.push(store);
      return store;
    }

    it('applies every migration in server/drizzle once', async () => {
      const store = await open();

      expect(store.kind).toBe(backend.kind);
      expect(await countAppliedMigrations(store.db)).toBe(journal.entries.length);
    });

    if (backend.persistent) {
      it('opens an already migrated database without migrating again or losing rows', async () => {
        const first = await open();
        await createSession(first.db, session);
        await first.close();
        opened.splice(0);

        const second = await open();

        expect(await countAppliedMigrations(second.db)).toBe(journal.entries.length);
        expect(await findSessionByIdHash(second.db, { idHash: 'h1' })).toMatchObject(session);
      });
    }
  });
}

describe('openStore on PGlite on disk', () => {
  let database: TestDatabase;

  afterAll(async () => {
    await database?.drop();
  });

  it('creates a data directory that does not exist yet', async () => {
    database = await createDirectoryTestDatabase();
    const nested = { dataDirectory: path.join(database.options.dataDirectory, 'nested', 'pglite') };

    const store = await openStore(nested);
    await store.close();

    expect((await stat(nested.dataDirectory)).isDirectory()).toBe(true);
  });
});

describe.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('openStore on PostgreSQL from several instances', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lets instances start at once on a fresh database, migrating it exactly once', async () => {
    const stores = await Promise.all([1, 2, 3].map(() => openStore(database.options)));
    try {
      for (const store of stores) expect(await countAppliedMigrations(store.db)).toBe(journal.entries.length);
      for (const [index, store] of stores.entries()) await createSession(store.db, { ...session, idHash: `h${index}` });
      for (const store of stores) expect(await store.db.select().from(sessions)).toHaveLength(stores.length);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe('openStore errors', () => {
  it.each([
    ['not a url', 'DATABASE_URL is not a valid URL'],
    ['mysql://root:hunter2@db.internal/handbook', 'must start with postgres:// or postgresql://, not mysql://'],
    ['postgres://root:hunter2@db.internal/', 'DATABASE_URL names no database'],
  ])('rejects DATABASE_URL %s before connecting', async (databaseUrl, message) => {
    const opening = openStore({ databaseUrl, dataDirectory: inMemoryDataDirectory });

    await expect(opening).rejects.toThrow(message);
    await expect(opening).rejects.not.toThrow('hunter2');
  });

  it('names the database but not the password when no server answers', async () => {
    const opening = openStore({
      databaseUrl: 'postgres://handbook:hunter2@127.0.0.1:1/handbook_prod?password=hunter2',
      dataDirectory: inMemoryDataDirectory,
    });

    await expect(opening).rejects.toThrow(
      'Could not open PostgreSQL database postgres://handbook@127.0.0.1:1/handbook_prod: connect ECONNREFUSED',
    );
    await expect(opening).rejects.not.toThrow('hunter2');
  });

  it.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('names a database that does not exist', async () => {
    const { options, drop } = await createPostgresTestDatabase();
    await drop();
    const missing = new URL(options.databaseUrl ?? '');
    missing.password = 'hunter2';

    const opening = openStore({ databaseUrl: missing.toString(), dataDirectory: inMemoryDataDirectory });

    await expect(opening).rejects.toThrow(`${missing.pathname.slice(1)}" does not exist`);
    await expect(opening).rejects.not.toThrow('hunter2');
  });
});
