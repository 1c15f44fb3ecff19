import { describe, expect, it } from 'vitest';
import { cookieSealer } from './cookie-sealer.js';

const secret = 'a-session-secret-of-at-least-thirty-two-characters';
const attempt = JSON.stringify({ state: 's', nonce: 'n-123', codeVerifier: 'verifier-abcdef', next: '/faqs/' });

describe('cookieSealer', () => {
  const sealer = cookieSealer(secret);

  it('opens what it sealed', () => {
    expect(sealer.unsign(sealer.sign(attempt))).toEqual({ valid: true, renew: false, value: attempt });
  });

  it('hidesPkceVerifierAndNonceFromCookieReaders', () => {
    const sealed = sealer.sign(attempt);
    for (const text of [sealed, Buffer.from(sealed, 'base64url').toString('latin1')]) {
      expect(text).not.toContain('verifier-abcdef');
      expect(text).not.toContain('n-123');
    }
  });

  it('rejectsTamperedSealedCookie', () => {
    const raw = Buffer.from(sealer.sign(attempt), 'base64url');
    raw[raw.length - 1] = (raw.at(-1) ?? 0) ^ 1;
    expect(sealer.unsign(raw.toString('base64url')).valid).toBe(false);
  });

  it.each([
    ['rejectsCookieSealedWithAnotherSecret', cookieSealer(`${secret}-other`).sign(attempt)],
    ['rejectsPlainJsonAsSealedCookie', attempt],
    ['rejectsTruncatedSealedCookie', 'abc'],
  ])('%s', (_name, input) => {
    expect(sealer.unsign(input)).toEqual({ valid: false, renew: false, value: null });
  });
});
