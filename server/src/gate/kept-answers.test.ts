import { describe, expect, it } from 'vitest';
import { keptAnswers } from './kept-answers.js';
import type { PreparedAnswer } from './lane-output.js';

const answer = (text: string): PreparedAnswer => ({
  status: 401,
  headers: ['content-type', 'text/plain'],
  body: Buffer.from(text),
});

describe('keptAnswers', () => {
  it('prepares an answer once per key while its sources are the same objects', () => {
    const kept = keptAnswers(10);
    const policy = {};
    const headers = {};
    let prepared = 0;
    const prepare = () => answer(`page ${++prepared}`);
    const first = kept('/a', [policy, headers], prepare);
    expect(kept('/a', [policy, headers], prepare)).toBe(first);
    expect(kept('/b', [policy, headers], prepare).body.toString()).toBe('page 2');
    expect(prepared).toBe(2);
  });

  it('drops every answer when a source changes', () => {
    const kept = keptAnswers(10);
    const headers = {};
    let prepared = 0;
    const prepare = () => answer(`page ${++prepared}`);
    kept('/a', [{ domains: ['acme.dev'] }, headers], prepare);
    const afterChange = kept('/a', [{ domains: ['acme.io'] }, headers], prepare);
    expect(afterChange.body.toString()).toBe('page 2');
  });

  it('holds at most maxEntries answers, the least recently used going first', () => {
    const kept = keptAnswers(2);
    const sources = [{}];
    const prepared: string[] = [];
    const prepare = (key: string) => () => {
      prepared.push(key);
      return answer(key);
    };
    const ask = (key: string) => kept(key, sources, prepare(key));
    for (const key of ['/a', '/b', '/a', '/c']) ask(key);
    expect(prepared).toEqual(['/a', '/b', '/c']);
    // /b was the least recently used when /c came: it is prepared again, /a and /c are still kept.
    for (const key of ['/a', '/c', '/b']) ask(key);
    expect(prepared).toEqual(['/a', '/b', '/c', '/b']);
  });
});
