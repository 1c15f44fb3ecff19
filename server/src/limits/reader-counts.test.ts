import { describe, expect, it } from 'vitest';
import { ReaderCounts } from './reader-counts.js';

describe('ReaderCounts', () => {
  it("refuses a reader's place beyond the limit, counts readers apart, and frees a place once per release", () => {
    const counts = new ReaderCounts();
    const first = counts.take('alice', 2);
    const second = counts.take('alice', 2);
    expect(first && second).toBeDefined();
    expect(counts.take('alice', 2)).toBeUndefined();
    expect(counts.take('bob', 2)).toBeDefined();
    first?.();
    first?.();
    expect(counts.count('alice')).toBe(1);
    const third = counts.take('alice', 2);
    expect(third).toBeDefined();
    expect(counts.take('alice', 2)).toBeUndefined();
    second?.();
    third?.();
    expect(counts.count('alice')).toBe(0);
    expect(counts.take('alice', 2)).toBeDefined();
  });
});
