import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store, type StoreOptions } from '../src/store/database.js';
import { describeError } from '../src/store/describe-error.js';
import { redactPostgresUrl } from '../src/store/postgres-url.js';

/** A fresh, empty database for one test file, and how to get rid of it. */
export type TestDatabase = { options: StoreOptions; drop(): Promise<void> };

/** Each place the store can live; store tests run the same suite against every one. */
export type TestBackend = {
  name: string;
  kind: Store['kind'];
  persistent: boolean;
  skipped: boolean;
  create(): Promise<TestDatabase>;
};

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export const testBackends: TestBackend[] = [
  {
    name: 'PGlite in memory',
    kind: 'pglite',
    persistent: false,
    skipped: false,
    create: async () => ({ options: { dataDirectory: inMemoryDataDirectory }, drop: async () => {} }),
  },
  { name: 'PGlite on disk', kind: 'pglite', persistent: true, skipped: false, create: createDirectoryTestDatabase },
  {
    name: 'PostgreSQL',
    kind: 'postgres',
    persistent: true,
    skipped: process.env.SKIP_POSTGRES_TESTS === '1',
    create: createPostgresTestDatabase,
  },
];

export async function createDirectoryTestDatabase(): Promise<TestDatabase> {
  const directory = await mkdtemp(path.join(tmpdir(), 'handbook-store-'));
  return {
    options: { dataDirectory: path.join(directory, 'data') },
    drop: () => rm(directory, { recursive: true, force: true }),
  };
}

/** Creates a uniquely named database on the test server; fails loudly when no server answers. */
export async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const name = `handbook_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    await admin.end({ timeout: 0 });
    throw new Error(
      `PostgreSQL tests need a server at ${redactPostgresUrl(new URL(adminUrl))} (${describeError(error)}). ` +
        'Start one, point TEST_DATABASE_ADMIN_URL at another, or set SKIP_POSTGRES_TESTS=1 to skip these tests.',
    );
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.toString(), dataDirectory: inMemoryDataDirectory },
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/**
 * A store for one suite of tests on one backend: opened before the suite, closed and its database dropped after.
 * `reopen` closes and opens it again, as a server restart would.
 */
export function storeForSuite(backend: TestBackend) {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  const opened = () => {
    if (!store || !database) throw new Error(`The ${backend.name} store is not open (used outside its suite?)`);
    return { store, database };
  };
  beforeAll(async () => {
    database = await backend.create();
    store = await openStore(database.options);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return {
    get db() {
      return opened().store.db;
    },
    async reopen() {
      const current = opened();
      await current.store.close();
      store = await openStore(current.database.options);
    },
  };
}
