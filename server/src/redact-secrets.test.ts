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

  // Made up here, never real: each has the shape its provider gives its keys.
  const stripe = 'a1B2c3D4e5F6g7H8i9J0kLmN';
  it.each([
    [
      'a lower-case bearer header',
      'curl -H "authorization: bearer abcdef0123456789abcdef" https://x',
      'curl -H "authorization: [redacted]" https://x',
    ],
    ['a bearer token in prose', 'I pass bearer abc123def456ghi789jk to it', 'I pass [redacted] to it'],
    ['a token header', `Authorization: token ${'0a1b2c3d4e'.repeat(4)}`, 'Authorization: [redacted]'],
    ['a short token header', "-H 'Authorization: Token abc123'", "-H 'Authorization: [redacted]'"],
    ['a Stripe secret key', `STRIPE_KEY is sk_live_${stripe}.`, 'STRIPE_KEY is [redacted].'],
    ['a Stripe restricted key', `rk_live_${stripe}`, '[redacted]'],
    ['a Stripe test key', `(sk_test_${stripe})`, '([redacted])'],
    ['a Google OAuth client secret', `client GOCSPX-${'1a2B3c4D5e6F7g'.repeat(2)} here`, 'client [redacted] here'],
    [
      'a Slack webhook URL',
      `post to https://hooks.slack.com/services/T0000AAAA/B0000BBBB/${'Xy12'.repeat(6)} now`,
      'post to https://hooks.slack.com/services/[redacted] now',
    ],
    ['a Slack bot token', `xoxb-123456789012-1234567890123-${'AbCd'.repeat(6)}`, '[redacted]'],
    ['a SendGrid key', `key SG.${'aB3-dE6_'.repeat(3)}.${'Gh9iJk2LmN'.repeat(4)}`, 'key [redacted]'],
    [
      'a curl user and password',
      'curl -u admin:S3cret!Pw https://api.acme.dev',
      'curl -u admin:[redacted] https://api.acme.dev',
    ],
    [
      'a curl --user password, quoted',
      'curl -sS --user "deploy:pa ss" -X POST https://x',
      'curl -sS --user "deploy:[redacted]" -X POST https://x',
    ],
    ['a mysql password after -p', 'mysql -h db -u root -pS3cret app', 'mysql -h db -u root -p[redacted] app'],
    ['a quoted mysqldump password', "mysqldump -u root -p'a b;c' app", 'mysqldump -u root -p[redacted] app'],
    ['a mysql --password=', 'mysql --password=S3cret app', 'mysql --password=[redacted] app'],
    ['a psql --password argument', 'psql --password X -h db', 'psql --password [redacted] -h db'],
    ['a PGPASSWORD', 'PGPASSWORD=hunter2 psql -h db', 'PGPASSWORD=[redacted] psql -h db'],
    [
      'an AWS secret key after its name and a space',
      'aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
      'aws_secret_access_key [redacted]\n',
    ],
    [
      "an AWS secret key at aws configure's prompt",
      'AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'AWS Secret Access Key [None]: [redacted]',
    ],
    [
      'a JSON password with escaped quotes',
      '{"password": "a\\"b\\\\", "user": "ada"}',
      '{"password": [redacted], "user": "ada"}',
    ],
  ])('hides %s', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['prose about a bearer', 'He was the bearer of bad news; bearer tokens_are_described_here.'],
    ['an authorization heading', 'Authorization: the process of granting access, see RFC 6750.'],
    ['sk_ in a variable name', 'const sk_ = 1; my_sk_live_value = 2; the sk_live_ prefix, sk_test_short'],
    ['mysql -p alone, which prompts', 'mysql -u root -p app\nmysql -p'],
    ['psql options', 'psql -p 5432 -W --password -h db'],
    ['a port after -p of another command', 'docker run -p8080:80 -u 1000:1000 nginx'],
    ['curl with a user alone, which prompts', 'curl -u admin https://api.acme.dev'],
    ['an AWS secret key named without a value', 'Where do I put aws_secret_access_key in the file?'],
    ['a Slack channel link', 'See https://acme.slack.com/archives/C0123 and hooks.slack.com/services/'],
  ])('leaves %s alone', (_name, text) => {
    expect(redactSecrets(text)).toBe(text);
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
    const spaces = ' '.repeat(20_000);
    const commands = `secret access key${spaces}x authorization:${spaces}x ${'curl -u '.repeat(5_000)} bearer${spaces}`;
    const started = performance.now();
    expect(redactSecrets(commands)).toBe(commands);
    expect(performance.now() - started).toBeLessThan(500);
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
