import { describe, expect, it } from 'vitest';
import { ReadsPerReader } from './reads-per-reader.js';

describe('ReadsPerReader', () => {
  it("refuses a reader's read beyond the limit, counts readers apart, and frees a place once per release", () => {
    const reads = new ReadsPerReader(2);
    const first = reads.take('alice');
    const second = reads.take('alice');
    expect(first && second).toBeDefined();
    expect(reads.take('alice')).toBeUndefined();
    expect(reads.take('bob')).toBeDefined();
    first?.();
    first?.();
    const third = reads.take('alice');
    expect(third).toBeDefined();
    expect(reads.take('alice')).toBeUndefined();
    second?.();
    third?.();
    expect(reads.take('alice')).toBeDefined();
  });
});
