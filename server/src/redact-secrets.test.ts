import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it.each([
    ['an npm token', 'token npm_abcdefghijklmnopqrstuvwxyz0123 leaked', 'token [redacted] leaked'],
    ['a GitLab token', 'glpat-ABCDEFGHIJKLMNOPQRST1234', '[redacted]'],
    ['a GitHub token', 'ghp_0123456789abcdefghijABCDEFGHIJ', '[redacted]'],
    ['an OpenAI key', 'OPENAI sk-proj-abcdefghijklmnop1234', 'OPENAI [redacted]'],
    ['a Shopify access token', 'shpat_0123456789abcdef0123456789abcdef', '[redacted]'],
    ['an AWS key id', 'AKIAABCDEFGHIJKLMNOP', '[redacted]'],
    [
      'a personal token of the handbook',
      `my token acme_pat_${'Ab3_-'.repeat(11)}x9Q2 gives 401`,
      'my token [redacted] gives 401',
    ],
    ['an agent access token', `acme_oat_${'z'.repeat(59)}`, '[redacted]'],
    ['an agent refresh token', `(acme_ort_${'9'.repeat(59)})`, '([redacted])'],
    [
      'an .npmrc auth line',
      '//gitlab.com/api/v4/packages/npm/:_authToken=abc123',
      '//gitlab.com/api/v4/packages/npm/:_authToken=[redacted]',
    ],
    ['a password setting', 'DB_PASSWORD: "hunter2 x"', 'DB_PASSWORD: [redacted]'],
    ['a bearer header', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx', 'Authorization: [redacted]'],
    [
      'a private key',
      'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nend',
      'key:\n[redacted]\nend',
    ],
  ])('hides %s', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it('leaves ordinary error text alone', () => {
    const text =
      'npm ERR! code E401\nnpm ERR! 401 Unauthorized - GET https://gitlab.com/api/v4/groups/acme-apps/-/packages/npm/@acme%2fcli';
    expect(redactSecrets(text)).toBe(text);
  });
});
