import { describe, expect, it } from 'vitest';
import { decideAccess, parseAccessPolicy } from './access-policy.js';
import { foldEmail, isPlainAsciiAddress } from './email-address.js';
import { legacyReaderKey, readerKeyOf } from './reader-identity.js';

const kelvinKate = '\u212Aate2@acme.dev';

describe('the one folding rule for addresses', () => {
  it('folds A-Z and nothing else', () => {
    expect(foldEmail('Kate2@ACME.Dev')).toBe('kate2@acme.dev');
    expect(foldEmail(kelvinKate)).toBe(kelvinKate);
    expect(foldEmail('\u0130nci@acme.dev')).toBe('\u0130nci@acme.dev');
    expect(foldEmail('\u00c9LODIE@acme.dev')).toBe('\u00c9lodie@acme.dev');
  });

  it('keeps a Kelvin-sign address apart from the ASCII one, where toLowerCase would merge them', () => {
    expect(kelvinKate.toLowerCase()).toBe('kate2@acme.dev');
    expect(legacyReaderKey(kelvinKate)).not.toBe(legacyReaderKey('kate2@acme.dev'));
    expect(legacyReaderKey('Kate2@acme.dev')).toBe(legacyReaderKey('kate2@acme.dev'));
  });

  it('accepts printable ASCII addresses only', () => {
    expect(isPlainAsciiAddress('kate.o-brien+docs@acme.dev')).toBe(true);
    for (const address of [kelvinKate, '\u0430lex@acme.dev', 'x\u200b@acme.dev', 'a b@acme.dev', 'x\u0000@acme.dev']) {
      expect(isPlainAsciiAddress(address), JSON.stringify(address)).toBe(false);
    }
  });

  it('is the access policy rule too: a Kelvin-sign local part is refused even on an allowed domain', () => {
    const policy = parseAccessPolicy({ domains: 'acme.dev, acme.io', addresses: '' });
    expect(decideAccess(policy, { email: kelvinKate, emailVerified: true })).toEqual({
      allowed: false,
      reason: 'malformed-email',
    });
    expect(decideAccess(policy, { email: 'Kate2@acme.dev', emailVerified: true }).allowed).toBe(true);
  });
});

describe('reader keys', () => {
  it('are the issuer and subject, whatever the address', () => {
    const kate = readerKeyOf({ issuer: 'https://accounts.google.com', subject: '1234' });
    expect(kate).toBe(readerKeyOf({ issuer: 'https://accounts.google.com', subject: '1234' }));
    expect(kate).not.toBe(readerKeyOf({ issuer: 'https://accounts.google.com', subject: '12345' }));
    expect(kate).not.toBe(readerKeyOf({ issuer: 'https://other.example', subject: '1234' }));
    expect(kate.startsWith('email:')).toBe(false);
  });
});
