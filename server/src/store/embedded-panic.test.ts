import { describe, expect, it } from 'vitest';
import { inMemoryDataDirectory, openEmbeddedDatabase } from './embedded-database.js';
import { EmbeddedDatabaseStopped, refuseAfterPanic } from './embedded-panic.js';

/**
 * A real PGlite whose engine panics on the first message holding `statement`, as it does when a write to its log
 * fails (e2e/embedded-store-panic.test.ts fails a real one). After a real panic any call into the engine loops for
 * ever, so here every message that would still reach it is only counted.
 */
async function panickingOn(statement: string) {
  const client = await openEmbeddedDatabase(inMemoryDataDirectory);
  await client.exec('create table notes (body text)');
  let panicked = false;
  const reachedAfterPanic: string[] = [];
  const callEngine = client.execProtocolRawSync.bind(client);
  client.execProtocolRawSync = (message) => {
    if (panicked) reachedAfterPanic.push(Buffer.from(message).toString('latin1'));
    return panicked ? new Uint8Array(0) : callEngine(message);
  };
  const readAnswers = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (message, options) => {
    if (!panicked && Buffer.from(message).includes(statement)) {
      panicked = true;
      throw Object.assign(new Error('could not write to log file: I/O error'), { severity: 'PANIC', code: '58030' });
    }
    return readAnswers(message, options);
  };
  const panics: unknown[] = [];
  const guarded = refuseAfterPanic(client, (error) => panics.push(error));
  return { client, reachedAfterPanic, panics, panicked: guarded.panicked };
}

describe('refuseAfterPanic on PGlite', () => {
  it('leaves a database that does not panic alone', async () => {
    const { client, panics, panicked } = await panickingOn('never sent');
    await client.transaction(async (tx) => {
      await tx.query('insert into notes values ($1)', ['kept']);
    });
    expect((await client.query('select body from notes')).rows).toEqual([{ body: 'kept' }]);
    expect(panics).toEqual([]);
    expect(panicked()).toBe(false);
    await client.close();
  });

  it('refuses a transaction whose COMMIT panics, without the Sync PGlite sends after it', async () => {
    const { client, reachedAfterPanic, panics, panicked } = await panickingOn('COMMIT');
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into notes values ($1)', ['lost']);
    });
    const queued = client.query('select body from notes');

    await expect(transaction).rejects.toMatchObject({ code: expect.stringMatching(/^58/) });
    await expect(queued).rejects.toBeInstanceOf(EmbeddedDatabaseStopped);
    await expect(client.exec('select 1')).rejects.toBeInstanceOf(EmbeddedDatabaseStopped);
    expect(reachedAfterPanic).toEqual([]);
    expect(panics).toHaveLength(1);
    expect(panicked()).toBe(true);
  });

  it('refuses a transaction whose statement panics, without PGlite rolling it back on the dead engine', async () => {
    const { client, reachedAfterPanic, panics } = await panickingOn('insert');
    const transaction = client.transaction(async (tx) => {
      await tx.query('select 1');
      await tx.query('insert into notes values ($1)', ['lost']);
    });

    await expect(transaction).rejects.toBeInstanceOf(EmbeddedDatabaseStopped);
    await expect(client.query('select 1')).rejects.toMatchObject({ code: '58000' });
    expect(reachedAfterPanic).toEqual([]);
    expect(panics).toHaveLength(1);
  });
});
