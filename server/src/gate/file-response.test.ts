import { describe, expect, it } from 'vitest';
import { encodingFor, matchesEtag, negotiatedEncodings } from './file-response.js';
import type { ServedFile } from './site-snapshot.js';

const file: ServedFile = {
  headers: {},
  etag: '"a1"',
  held: { br: Buffer.from('b'), gzip: Buffer.from('g'), identity: Buffer.from('i') },
  onDisk: {},
};

describe('encodingFor', () => {
  it('picks br, else gzip, else the file as it is', () => {
    expect(encodingFor('gzip, deflate, br', file)).toBe('br');
    expect(encodingFor('gzip;q=1, br;q=0.5', file)).toBe('gzip');
    expect(encodingFor('br', { ...file, held: { gzip: Buffer.from('g'), identity: Buffer.from('i') } })).toBe('gzip');
    expect(encodingFor(undefined, file)).toBe('identity');
  });

  it('keeps at most 256 parsed headers when a client sends a new one with every request, and still answers right', () => {
    for (let index = 0; index < 2000; index += 1) {
      expect(encodingFor(`gzip;q=0.${(index % 9) + 1}, x-custom-${index}`, file)).toBe('gzip');
    }
    expect(negotiatedEncodings()).toBe(256);
    expect(encodingFor('br', file)).toBe('br');
  });
});

describe('matchesEtag', () => {
  it('matches one tag, a list, a weak tag and *', () => {
    expect(matchesEtag('"a1"', '"a1"')).toBe(true);
    expect(matchesEtag('"x", W/"a1"', '"a1"')).toBe(true);
    expect(matchesEtag('*', '"a1"')).toBe(true);
    expect(matchesEtag('"x"', '"a1"')).toBe(false);
    expect(matchesEtag(undefined, '"a1"')).toBe(false);
  });
});
