import type { IDToken } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { type AccessPolicy, decideAccess } from './access-policy.js';
import { isPlainAsciiAddress } from './email-address.js';
import { identityFrom, MissingEmailError } from './identity-provider.js';

const claims = (extra: Record<string, unknown>): IDToken => ({
  iss: 'https://accounts.example',
  sub: '1234',
  aud: 'handbook',
  iat: 0,
  exp: 0,
  email: 'you@acme.dev',
  email_verified: true,
  ...extra,
});

const policy: AccessPolicy = {
  domains: ['acme.dev'],
  addresses: ['you@gmail.com'],
  allowSubdomains: false,
  requireHostedDomain: true,
  maintainers: [],
  blocked: [],
};

describe('identityFrom', () => {
  it.for([
    ['rejectsNulStrippedToAnAllowedDomain', { email: 'you@acme.dev\0', hd: 'acme.dev' }],
    ['rejectsNulStrippedToAnAllowedAddress', { email: 'y\0ou@gmail.com' }],
    ['rejectsHostedDomainWithNulMatchingAnAllowedOne', { hd: 'acme.dev\0' }],
  ] as const)('%s: no NUL is kept, and nothing refused becomes allowed', ([, extra]) => {
    const identity = identityFrom(claims(extra));
    expect(JSON.stringify(identity)).not.toContain('\\u0000');
    expect(decideAccess(policy, identity).allowed).toBe(false);
  });

  it('keeps the text of an address, a name and a domain, each control character as U+FFFD', () => {
    const identity = identityFrom(claims({ email: 'y\0ou@gmail.com', name: 'Ann\0\u0085\nLee', hd: 'acme.dev\x7f' }));
    expect(identity).toMatchObject({ email: 'y\uFFFDou@gmail.com', name: 'Ann\uFFFD\uFFFD\uFFFDLee' });
    expect(identity.hostedDomain).toBe('acme.dev\uFFFD');
    expect(isPlainAsciiAddress(identity.email)).toBe(false);
  });

  it('leaves plain claims as they are', () => {
    expect(identityFrom(claims({ name: 'Ann Lee', hd: 'acme.dev' }))).toEqual({
      issuer: 'https://accounts.example',
      subject: '1234',
      email: 'you@acme.dev',
      emailVerified: true,
      hostedDomain: 'acme.dev',
      name: 'Ann Lee',
    });
  });

  it('fails a sign-in whose sub holds a control character rather than alter the account id', () => {
    expect(() => identityFrom(claims({ sub: '1234\0' }))).toThrow('"sub" holds a control character');
  });

  it('fails a sign-in without an e-mail address', () => {
    expect(() => identityFrom(claims({ email: undefined }))).toThrow(MissingEmailError);
  });
});
