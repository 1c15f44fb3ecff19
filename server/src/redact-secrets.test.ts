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
    ['a password in JSON', '{"password": "Hunter22!", "user": "ada"}', '{"password": [redacted], "user": "ada"}'],
    ['a client secret in YAML', "  client_secret: 'abc def'\n", '  client_secret: [redacted]\n'],
    ['an AWS secret key setting', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG', 'AWS_SECRET_ACCESS_KEY=[redacted]'],
    ['an access token in JSON', '{"access_token":"ya29.a0AfH6"}', '{"access_token":[redacted]}'],
    [
      'the password of a connection URL',
      'DATABASE_URL is postgres://admin:S3cretPw@db.acme.dev/app today',
      'DATABASE_URL is postgres://admin:[redacted]@db.acme.dev/app today',
    ],
    [
      'a JSON Web Token',
      'id_token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX2hlcmU here',
      'id_token [redacted] here',
    ],
    [
      "the handbook's own session cookie",
      'curl -b acme_session=Fe26.2**abc*def/x https://docs.acme.dev',
      'curl -b acme_session=[redacted] https://docs.acme.dev',
    ],
    [
      'a secure session cookie',
      '__Host-acme_session=s3ss10nV4lue; theme=dark',
      '__Host-acme_session=[redacted]; theme=dark',
    ],
    [
      'a Cookie header from the network panel',
      'Cookie: _ga=GA1.2.3; ory_kratos_zz=MTY3; other=1\nnext line',
      'Cookie: _ga=[redacted]; ory_kratos_zz=[redacted]; other=[redacted]\nnext line',
    ],
    ['a session id', 'PHPSESSID=abc123def; path=/', 'PHPSESSID=[redacted]; path=/'],
    [
      'an AWS key pair from a credentials file',
      'AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
      '[redacted]\n',
    ],
  ])('hides %s', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it('leaves ordinary settings and counts alone', () => {
    const text =
      'max_tokens: 1000, tokens: 3, tokenizer=bert, https://gitlab.com:443/acme/app, git@gitlab.com:acme/app.git';
    expect(redactSecrets(text)).toBe(text);
  });

  it('leaves a long run of word characters alone', () => {
    // Each pattern's repeated parts are bounded: unbounded, the URL one took 1.5 s over this text.
    const long = `${'a.'.repeat(20_000)} ${'b'.repeat(40_000)} ${'c:'.repeat(20_000)}`;
    expect(redactSecrets(long)).toBe(long);
  });

  it('leaves a question about sessions alone', () => {
    const text = 'My session: expired after 5 minutes; the session cookie is set. Is session=on a flag?';
    expect(redactSecrets(text)).toBe(text);
  });

  it('leaves ordinary error text alone', () => {
    const text =
      'npm ERR! code E401\nnpm ERR! 401 Unauthorized - GET https://gitlab.com/api/v4/groups/acme-apps/-/packages/npm/@acme%2fcli';
    expect(redactSecrets(text)).toBe(text);
  });
});
