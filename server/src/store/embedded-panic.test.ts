import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { EmbeddedDatabaseStopped, refuseAfterPanic } from './embedded-panic.js';

/** A stand-in for PGlite whose first query panics after a moment; it counts what reaches it. */
function panickingEngine() {
  const reached: string[] = [];
  const engine = {
    async query(sql: string) {
      reached.push(sql);
      if (reached.length === 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw Object.assign(new Error('could not write to log file: I/O error'), { severity: 'PANIC' });
      }
      return { rows: [] };
    },
  };
  return { engine: engine as unknown as PGlite, reached };
}

describe('refuseAfterPanic', () => {
  it('refuses every call after a panic, including one made while the panicking query still ran', async () => {
    const { engine, reached } = panickingEngine();
    const panics: unknown[] = [];
    const guarded = refuseAfterPanic(engine, (error) => panics.push(error));
    const first = guarded.client.query('insert 1');
    const second = guarded.client.query('select 1');
    await expect(first).rejects.toMatchObject({ severity: 'PANIC' });
    await expect(second).rejects.toBeInstanceOf(EmbeddedDatabaseStopped);
    await expect(guarded.client.query('select 2')).rejects.toMatchObject({ code: '58000' });
    expect(reached).toEqual(['insert 1']);
    expect(panics).toHaveLength(1);
    expect(guarded.panicked()).toBe(true);
  });
});
