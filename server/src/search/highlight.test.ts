import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { around, highlight } from './highlight.js';

const matched = new Set(analyze('ttl policies'));

describe('highlight', () => {
  it('marks every word whose terms matched, keeping all the text in order', () => {
    const pieces = highlight('Create a TTL policy, then check the policies.', matched);
    expect(pieces.map((piece) => piece.text).join('')).toBe('Create a TTL policy, then check the policies.');
    expect(pieces.filter((piece) => piece.match).map((piece) => piece.text)).toEqual(['TTL', 'policy', 'policies']);
  });

  it('marks the words of what is asked now, not of what was asked before about the same text', () => {
    const text = 'Create a TTL policy, then check the policies.';
    const marked = (asked: string) =>
      highlight(text, new Set(analyze(asked)))
        .filter((piece) => piece.match)
        .map((piece) => piece.text);
    expect(marked('ttl')).toEqual(['TTL']);
    expect(marked('check policy')).toEqual(['policy', 'check', 'policies']);
    expect(marked('ttl')).toEqual(['TTL']);
  });

  it('marks a word longer than any of the docs as well', () => {
    const long = `x${'a'.repeat(80)}`;
    expect(highlight(`see ${long} here`, new Set(analyze(long))).filter((piece) => piece.match)).toEqual([
      { text: long, match: true },
    ]);
  });

  it('marks nothing when nothing matched', () => {
    expect(highlight('Nothing here', matched)).toEqual([{ text: 'Nothing here', match: false }]);
  });
});

describe('around', () => {
  it('keeps a short text whole', () => {
    expect(around('A TTL policy.', matched)).toBe('A TTL policy.');
  });

  it('starts at most 50 characters before the first match, cut at spaces, with ellipses', () => {
    const text = `${'word '.repeat(40)}the TTL policy expires documents ${'later '.repeat(40)}`.trim();
    const snippet = around(text, matched);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.indexOf('TTL')).toBeLessThanOrEqual(52);
    expect(snippet.length).toBeLessThanOrEqual(162);
    expect(snippet).not.toMatch(/…\S*wor$|^…or/);
  });
});
