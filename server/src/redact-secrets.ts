export const redactedMarker = '[redacted]';

/** A credential's pattern, and what it leaves of a match (by default nothing but the marker). */
type SecretPattern = { pattern: RegExp; keep?: (...groups: string[]) => string };

/**
 * Key names whose value is a credential, in config files, `.env` lines, YAML and JSON: the key may say so anywhere
 * (`DB_PASSWORD`, `client_secret`, `AWS_SECRET_ACCESS_KEY`, `"apiKey"`), or end in `token` (`access_token`). The
 * parts around the word are bounded, so a long run of word characters costs linear time, not quadratic.
 */
const secretKey = String.raw`(?<![\w.-])(?:[\w.-]{0,40}?(?:_authToken|_auth|password|passwd|secret|api[_-]?key|private[_-]?key)[\w.-]{0,40}|[\w.-]{0,40}?token)`;

/**
 * Credentials that show up in questions and screenshots of terminals and config files (npm and GitLab tokens, API
 * keys, private keys, auth headers, passwords in settings and connection URLs, JSON Web Tokens, the handbook's own
 * tokens). Found in text before it is sent to a model provider or kept in the questions and search logs.
 */
const secretPatterns: readonly SecretPattern[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  {
    pattern:
      /\b(npm_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g,
  },
  // An AWS key id, and the 40-character secret written beside it (a credentials CSV, `aws configure`'s echo).
  { pattern: /\bAKIA[0-9A-Z]{16}\b(?:[\s,;:"'=|]+[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+]))?/g },
  { pattern: /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|xox[abprs]-[A-Za-z0-9-]{10,})\b/g },
  { pattern: /\b(shpat|shpss|shpca|shppa)_[a-fA-F0-9]{20,}\b/g },
  // The handbook's own: personal tokens and the access and refresh tokens of coding agents (auth/tokens, auth/oauth).
  { pattern: /\bacme_(pat|oat|ort)_[A-Za-z0-9_-]{20,}/g },
  // A JSON Web Token (an ID token, a service's session), header and payload both base64url JSON.
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  // The password of a connection URL (`postgres://admin:pw@db`); the user and host stay, they help the answer.
  {
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{1,256}:)([^\s/@]{1,256})(@)/gi,
    keep: (_match, start = '', _password, at = '') => `${start}${redactedMarker}${at}`,
  },
  // `key=value`, `key: value`, `"key": "value"`: the key and its separator stay.
  {
    pattern: new RegExp(String.raw`(${secretKey})(["']?\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;}]+)`, 'gi'),
    keep: (_match, key = '', separator = '') => `${key}${separator}${redactedMarker}`,
  },
  // A session cookie written `name=value` (`acme_session=`, `__Host-acme_session=`, `PHPSESSID=`, `connect.sid=`):
  // a plain "session: expired" in a question stays as it is.
  {
    pattern: /(?<![\w.-])([\w.-]{0,40}?(?:[_.-]session|session[_.-]?id|sessid|connect\.sid)\s*=\s*)([^\s,;]+)/gi,
    keep: (_match, key = '') => `${key}${redactedMarker}`,
  },
  // A Cookie or Set-Cookie header, as copied from a browser's network panel: every value, whatever the cookie's name.
  {
    pattern: /\b((?:set-)?cookie\s*:[ \t]*)([^\n]{1,8192})/gi,
    keep: (_match, header = '', pairs = '') => `${header}${pairs.replace(/=[^;\s]+/g, `=${redactedMarker}`)}`,
  },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/g },
];

/** The text with every credential-looking string replaced by "[redacted]"; the key name of `key=value` stays. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const { pattern, keep } of secretPatterns) {
    redacted = redacted.replace(pattern, (...match: string[]) => (keep ? keep(...match) : redactedMarker));
  }
  return redacted;
}
