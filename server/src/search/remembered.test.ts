import { describe, expect, it } from 'vitest';
import { remembered } from './remembered.js';

describe('remembered', () => {
  it('makes a value once per text while the text is among the latest, and again once it has been let go', () => {
    const made: string[] = [];
    const parse = remembered(
      (json): number[] => {
        made.push(json);
        return JSON.parse(json) as number[];
      },
      { characters: 10 },
    );
    const first = parse('[1,2,3]');
    expect(parse('[1,2,3]')).toBe(first);
    expect(made).toEqual(['[1,2,3]']);
    parse('[4,5,6]'); // 14 characters in all: the first one is let go
    expect(parse('[1,2,3]')).not.toBe(first);
    expect(parse('[1,2,3]')).toEqual([1, 2, 3]);
    expect(made).toEqual(['[1,2,3]', '[4,5,6]', '[1,2,3]']);
  });

  it('keeps at most the number of entries asked for, and takes an empty text', () => {
    const lengths = remembered((text): string => String(text.length), { entries: 2 });
    expect(['', 'a', 'ab', ''].map(lengths)).toEqual(['0', '1', '2', '0']);
  });
});
