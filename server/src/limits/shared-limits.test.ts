import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countIn, postgresBackend } from '../../test-support/limit-backends.js';
import { capturedLog } from '../../test-support/limits.js';
import type { Limits } from './limits.js';
import type { ReaderSlot } from './reader-slots.js';

/** The limits in the shared PostgreSQL database, seen from two server instances with connections of their own. */

const aReader = () => `reader-${randomBytes(4).toString('hex')}@acme.dev`;

describe.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('limits shared in PostgreSQL', () => {
  const backend = postgresBackend();
  const { log, warnings } = capturedLog();
  // These tests are about sharing, not about a slow store (limits-outage.test.ts is): on a loaded machine a statement
  // can take longer than the production bound of 300 ms, and this instance would then rightly count alone.
  const patient = { log, timeoutMs: 10_000 };
  let first: Limits;
  let second: Limits;

  beforeAll(async () => {
    await backend.setUp();
    [first, second] = await Promise.all([backend.instance(patient), backend.instance(patient)]);
  });

  afterAll(async () => {
    await backend.tearDown();
  });

  it('counts a reader’s requests a minute once for two instances', async () => {
    const key = `ask:user:${aReader()}`;
    const [countOnFirst, countOnSecond] = [countIn(first), countIn(second)];
    const counted = [];
    for (let request = 0; request < 6; request++) {
      counted.push(await (request % 2 === 0 ? countOnFirst : countOnSecond)(key));
    }
    expect(counted.map((count) => count.current)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const { ttl } of counted) {
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    // Another reader, or the same reader's searches, count apart.
    expect((await countOnSecond(`search:user:${aReader()}`)).current).toBe(1);
    expect(first.where).toBe('postgres');
  });

  it('opens a new window once the last one ended', async () => {
    const key = `search:user:${aReader()}`;
    const count = countIn(first, { windowMs: 300 });
    for (let request = 1; request <= 3; request++) expect((await count(key)).current).toBe(request);
    await backend.elapse(350);
    const reopened = await countIn(second, { windowMs: 300 })(key);
    expect(reopened.current).toBe(1);
    expect(reopened.ttl).toBeGreaterThan(200);
  });

  it('shares a reader’s running questions between two instances, and frees a slot as soon as it is released', async () => {
    const reader = aReader();
    const onFirst = await first.readerSlots?.take(reader, 2);
    const onSecond = await second.readerSlots?.take(reader, 2);
    expect(onFirst).toBeDefined();
    expect(onSecond).toBeDefined();
    expect(await first.readerSlots?.take(reader, 2)).toBeUndefined();
    expect(await second.readerSlots?.take(reader, 2)).toBeUndefined();
    // Another reader is not held up.
    expect(await second.readerSlots?.take(aReader(), 2)).toBeDefined();
    onFirst?.release();
    await expect.poll(async () => (await second.readerSlots?.take(reader, 2)) !== undefined).toBe(true);
  });

  it('never grants more slots than the limit to requests racing on two instances', async () => {
    const reader = aReader();
    const taken = await Promise.all(
      Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).readerSlots?.take(reader, 3)),
    );
    expect(taken.filter((slot) => slot !== undefined)).toHaveLength(3);
  });

  it('frees the slot of an instance that died, once its lifetime is over', async () => {
    const reader = aReader();
    // An instance that took a slot and then stopped for good: nothing refreshes it.
    const dead = await backend.rawStore();
    expect(await dead.takeSlot(reader, 1, 500)).toEqual(expect.any(String));
    expect(await second.readerSlots?.take(reader, 1)).toBeUndefined();
    await backend.elapse(600);
    expect(await second.readerSlots?.take(reader, 1)).toBeDefined();
  });

  it('keeps the slot of a live instance past its lifetime, for as long as the answer runs', async () => {
    const reader = aReader();
    const live = await backend.instance({ ...patient, slotLifetimeMs: 1500 });
    const slot = await live.readerSlots?.take(reader, 1);
    expect(slot).toBeDefined();
    // Real time: the instance's own refresher, on its timer, is what must keep the slot ahead of the database's clock.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await second.readerSlots?.take(reader, 1)).toBeUndefined();
    slot?.release();
    await expect.poll(async () => (await second.readerSlots?.take(reader, 1)) !== undefined).toBe(true);
  });

  it('gives back every slot an instance still holds when it closes', async () => {
    const reader = aReader();
    const closing = await backend.instance(patient);
    const held: Array<ReaderSlot | undefined> = [
      await closing.readerSlots?.take(reader, 2),
      await closing.readerSlots?.take(reader, 2),
    ];
    expect(held.every((slot) => slot !== undefined)).toBe(true);
    await closing.close();
    expect(await first.readerSlots?.take(reader, 2)).toBeDefined();
    expect(await first.readerSlots?.take(reader, 2)).toBeDefined();
  });

  it('warned of nothing: the store answered throughout', () => {
    expect(warnings()).toEqual([]);
  });
});
