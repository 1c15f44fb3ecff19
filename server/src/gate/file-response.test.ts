import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { encodingFor, matchesEtag, negotiatedEncodings, sendServedFile } from './file-response.js';
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

describe('sendServedFile', () => {
  const large = (diskPath: string): ServedFile => ({
    headers: { 'content-type': 'image/png', etag: '"big1"', 'cache-control': 'public, max-age=31536000, immutable' },
    etag: '"big1"',
    held: {},
    onDisk: { identity: diskPath },
  });
  const serve = async (served: ServedFile) => {
    const app = Fastify();
    app.get('/big.png', (request, reply) => sendServedFile(request, reply, served));
    try {
      return await app.inject({ url: '/big.png' });
    } finally {
      await app.close();
    }
  };

  it('streams a large file from disk with its headers', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'served-'));
    try {
      writeFileSync(path.join(directory, 'big.png'), 'pixels');
      const response = await serve(large(path.join(directory, 'big.png')));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.body).toBe('pixels');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('says "try again in a moment" for a file a rebuild has just removed, with none of its headers', async () => {
    const response = await serve(large(path.join(tmpdir(), 'gone-with-the-old-build', 'big.png')));
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toBe('The handbook is being updated; try again in a moment.');
  });
});
