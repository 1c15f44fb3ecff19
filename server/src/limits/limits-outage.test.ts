import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countIn } from '../../test-support/limit-backends.js';
import { capturedLog, startRelay } from '../../test-support/limits.js';
import { createPostgresTestDatabase, type TestDatabase } from '../../test-support/test-databases.js';
import { openStore, type Store } from '../store/database.js';
import { openLimits } from './limits.js';

/** A database that fails, stalls or is cut off loosens a limit to one instance's count for a while, and fails nothing. */

const aReader = () => `reader-${randomBytes(4).toString('hex')}@acme.dev`;
const unavailable = (backend: string) =>
  `the limits shared across instances are unavailable (${backend}); this instance counts alone meanwhile`;
const back = 'the limits shared across instances are back';

describe('limits on a PostgreSQL database that fails or stalls', () => {
  let database: TestDatabase;
  let store: Store;
  let admin: postgres.Sql;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    store = await openStore(database.options);
    admin = postgres(database.options.databaseUrl ?? '', { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await admin.end({ timeout: 5 });
    await store.close();
    await database.drop();
  });

  it('count in this instance when its queries fail, with one warning', async () => {
    const broken = await openStore(database.options);
    const { log, warnings } = capturedLog();
    const limits = await openLimits({ postgres: broken.db, log });
    await broken.close();
    const count = countIn(limits, { max: 2 });
    const key = `ask:user:${aReader()}`;
    const counted = [];
    for (let request = 0; request < 4; request++) counted.push((await count(key)).current);
    expect(counted).toEqual([1, 2, 3, 4]);
    expect(await limits.readerSlots?.take(aReader(), 1)).toBeDefined();
    await limits.close();
    expect(warnings()).toEqual([unavailable('PostgreSQL')]);
  });

  it('do not wait on a locked table past their time limit, and give back a slot granted too late', async () => {
    const { log, lines } = capturedLog();
    const limits = await openLimits({ postgres: store.db, log, timeoutMs: 200 });
    const reader = aReader();
    const key = `search:user:${reader}`;
    const count = countIn(limits);
    expect((await count(key)).current).toBe(1);
    let unlock = () => {};
    const locked = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    let lockTaken = () => {};
    const taken = new Promise<void>((resolve) => {
      lockTaken = resolve;
    });
    const holding = admin.begin(async (transaction) => {
      await transaction`lock table rate_limit_windows, running_question_slots in access exclusive mode`;
      lockTaken();
      await locked;
    });
    await taken;
    const started = performance.now();
    expect((await count(key)).current).toBe(2);
    const slot = await limits.readerSlots?.take(reader, 1);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slot).toBeDefined();
    expect(lines.filter((line) => line.level === 40)).toMatchObject([
      { msg: unavailable('PostgreSQL'), reason: 'no answer within 200 ms' },
    ]);
    unlock();
    await holding;
    // The stalled count landed after all; the stalled slot was given back as soon as it was granted.
    await expect
      .poll(async () => (await admin`select count from rate_limit_windows where key = ${key}`)[0]?.count)
      .toBe(2);
    await expect
      .poll(
        async () =>
          (await admin`select count(*)::int as held from running_question_slots where reader = ${reader}`)[0]?.held,
      )
      .toBe(0);
    await limits.close();
  });

  it('count alone while the network to it is cut, and share again by themselves once it is back', async () => {
    const databaseUrl = new URL(database.options.databaseUrl ?? '');
    const relay = await startRelay({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    databaseUrl.port = String(relay.port);
    const behindRelayStore = await openStore({ ...database.options, databaseUrl: databaseUrl.href });
    const { log, warnings, infos } = capturedLog();
    // Time enough for a first connection on a busy machine (a cut connection fails at once, it does not wait): at the
    // default 300 ms, CI once saw the first count through the relay taken alone, and the direct one then gave 1.
    const behindRelay = await openLimits({ postgres: behindRelayStore.db, log, timeoutMs: 5000 });
    const direct = await openLimits({ postgres: store.db, log: capturedLog().log, timeoutMs: 5000 });
    try {
      const key = `ask:user:${aReader()}`;
      const [countBehindRelay, countDirect] = [countIn(behindRelay), countIn(direct)];
      // Both connections open before anything is counted.
      await countBehindRelay(`ask:user:${aReader()}`);
      await countDirect(`ask:user:${aReader()}`);
      expect((await countBehindRelay(key)).current).toBe(1);
      expect((await countDirect(key)).current).toBe(2);
      await relay.cut();
      // This instance has seen one request of the reader's: its own count goes on from there.
      expect((await countBehindRelay(key)).current).toBe(2);
      expect((await countDirect(key)).current).toBe(3);
      expect(warnings()).toEqual([unavailable('PostgreSQL')]);
      await relay.restore();
      await expect
        .poll(async () => (await countBehindRelay(key)).current, { timeout: 8000, interval: 250 })
        .toBeGreaterThan(3);
      expect(infos()).toContain(back);
      expect(warnings()).toEqual([unavailable('PostgreSQL')]);
    } finally {
      await behindRelay.close();
      await direct.close();
      await behindRelayStore.close().catch(() => {});
      await relay.close();
    }
  });
});
