import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test-support/limits.js';
import { OutageGuard } from './outage-guard.js';
import { SharedReaderSlots } from './reader-slots.js';
import type { HeldSlot, SharedLimitStore } from './shared-store.js';

/**
 * A running question's slot whose release fails while the database is away (an answer that fails in an outage ends
 * then): it is given back once the database is back, not left to expire a minute later while its reader is refused
 * 429 for a question that has ended.
 */

/** A shared store in memory whose `releaseSlot` fails while `down` says so; it counts every attempt. */
function flakyStore() {
  const slots = new Map<string, string>();
  const state = { down: false, releaseAttempts: 0 };
  let serial = 0;
  const store: SharedLimitStore = {
    count: async () => ({ current: 1, ttl: 60_000 }),
    takeSlot: async (reader, max) => {
      if ([...slots.values()].filter((owner) => owner === reader).length >= max) return undefined;
      serial += 1;
      slots.set(`slot-${serial}`, reader);
      return `slot-${serial}`;
    },
    refreshSlots: async () => {},
    releaseSlot: async (slot: HeldSlot) => {
      state.releaseAttempts += 1;
      if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      slots.delete(slot.id);
    },
    close: async () => {},
  };
  return { store, state, held: (reader: string) => [...slots.values()].filter((owner) => owner === reader).length };
}

const guard = () => new OutageGuard({ backend: 'PostgreSQL', log: capturedLog().log, timeoutMs: 200 });

describe('a slot released while the shared store is away', () => {
  it('is given back once the store is back, without keeping the answer’s end waiting', async () => {
    const { store, state, held } = flakyStore();
    const slots = new SharedReaderSlots(store, guard(), 60_000);
    const slot = await slots.take('ada@acme.dev', 1);
    expect(await slots.take('ada@acme.dev', 1)).toBeUndefined();

    state.down = true;
    const started = performance.now();
    await slot?.release();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(held('ada@acme.dev')).toBe(1);

    state.down = false;
    await expect.poll(() => held('ada@acme.dev'), { timeout: 5000, interval: 50 }).toBe(0);
    expect(await slots.take('ada@acme.dev', 1)).toBeDefined();
    await slots.close();
  });

  it('is tried no longer than the slot would have lasted, nor after the slots are closed', async () => {
    const { store, state, held } = flakyStore();
    const slots = new SharedReaderSlots(store, guard(), 1200);
    state.down = true;
    await (await slots.take('bob@acme.dev', 1))?.release();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const attempts = state.releaseAttempts;
    // The first attempt, then pauses of 0.5 s and 1 s fit in the slot's 1.2 s lifetime; none after.
    expect(attempts).toBeGreaterThan(1);
    expect(attempts).toBeLessThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(state.releaseAttempts).toBe(attempts);
    expect(held('bob@acme.dev')).toBe(1);

    const closing = new SharedReaderSlots(store, guard(), 60_000);
    await (await closing.take('cy@acme.dev', 1))?.release();
    const beforeClose = state.releaseAttempts;
    await closing.close();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(state.releaseAttempts).toBe(beforeClose);
  }, 10_000);
});
