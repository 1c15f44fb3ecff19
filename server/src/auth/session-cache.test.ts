import { describe, expect, it } from 'vitest';
import { createSessionCache } from './session-cache.js';

describe('createSessionCache', () => {
  it('returns a row until its time to live runs out', () => {
    const cache = createSessionCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'row', 0);
    expect(cache.get('a', 999)).toBe('row');
    expect(cache.get('a', 1000)).toBeUndefined();
  });

  it('forgets a deleted session at once (sign-out on this instance)', () => {
    const cache = createSessionCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'row', 0);
    cache.delete('a');
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = createSessionCache<string>({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', '1', 0);
    cache.set('b', '2', 0);
    cache.set('c', '3', 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe('3');
  });

  it('updates a cached row in place', () => {
    const cache = createSessionCache<{ seen: number }>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', { seen: 1 }, 0);
    cache.update('a', (row) => ({ ...row, seen: 2 }));
    expect(cache.get('a', 1)).toEqual({ seen: 2 });
  });
});
