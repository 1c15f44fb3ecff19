import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../../../test-support/test-databases.js';
import { loadStoreLocation } from '../../config.js';
import { openStore } from '../../store/database.js';
import { openReportStore, ReportStoreError } from './report-store.js';

describe.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('openReportStore on PostgreSQL', () => {
  it('never migrates the database: an older one is refused and left as it was', async () => {
    const database = await createPostgresTestDatabase();
    try {
      const location = { databaseUrl: database.options.databaseUrl, dataDirectory: '/nonexistent' };
      await expect(openReportStore(location)).rejects.toThrow(ReportStoreError);
      await expect(openReportStore(location)).rejects.toThrow(/no questions log yet/);
      const raw = await openStore({ ...database.options, migrate: false });
      const result = await raw.db.execute(
        sql`select count(*)::int as tables from information_schema.tables where table_schema = 'public'`,
      );
      await raw.close();
      expect((result as unknown as Array<{ tables: number }>)[0]?.tables).toBe(0);

      // Once the server (which migrates) has run, the report opens it.
      await (await openStore(database.options)).close();
      const store = await openReportStore(location);
      await store.close();
    } finally {
      await database.drop();
    }
  });
});

describe('loadStoreLocation', () => {
  it('reads only where the data lives, so the report runs without the server secrets', () => {
    expect(loadStoreLocation({ NODE_ENV: 'production', DATA_DIR: '/srv/handbook' })).toEqual({
      dataDirectory: '/srv/handbook',
      databaseUrl: undefined,
    });
    expect(() => loadStoreLocation({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
  });
});
