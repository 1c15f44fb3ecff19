import type { SQL } from 'drizzle-orm';
import type { Database } from '../store/database.js';

/** Runs raw SQL and returns its rows: postgres.js answers with an array, PGlite with `{ rows }`. */
export async function rowsOf<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[];
}
