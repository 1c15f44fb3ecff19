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

  it('holds at most maxEntries answers', () => {
    const kept = keptAnswers(2);
    const sources = [{}];
    let prepared = 0;
    const prepare = () => answer(`page ${++prepared}`);
    for (const key of ['/a', '/b', '/c']) kept(key, sources, prepare);
    // Full at the third key, so it started afresh: /a is prepared again, /c is still there.
    kept('/c', sources, prepare);
    expect(prepared).toBe(3);
    kept('/a', sources, prepare);
    expect(prepared).toBe(4);
  });
});
