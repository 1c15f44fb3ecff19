import { describe, expect, it } from 'vitest';
import { defaultMaxConnections, openFileLimitIn } from './open-file-limit.js';

const limitsOf = (soft: string, hard: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             63427                63427                processes ',
    `Max open files            ${soft.padEnd(21)}${hard.padEnd(21)}files     `,
  ].join('\n');

describe('the open-file limit and the connections it leaves room for', () => {
  it.for([
    ['1024', '1024', 1024],
    ['20000', '1048576', 20000],
  ] as const)('reads the soft limit %s (hard %s) from /proc/self/limits', ([soft, hard, limit]) => {
    expect(openFileLimitIn(limitsOf(soft, hard))).toBe(limit);
  });

  it('knows no limit where the text says none', () => {
    expect(openFileLimitIn(undefined)).toBeUndefined();
    expect(openFileLimitIn('Max processes 10 10 processes')).toBeUndefined();
  });

  it.for([
    [1024, 512],
    [4096, 2048],
    [1_048_576, 10_000],
    [1, 1],
  ] as const)('keepsHalfTheDescriptorsForTheRest: with a limit of %i, %i connections', ([limit, connections]) => {
    expect(defaultMaxConnections(limit)).toBe(connections);
  });

  it('assumes the common 1,024 where the limit is unknown', () => {
    expect(defaultMaxConnections(undefined)).toBe(512);
  });
});
