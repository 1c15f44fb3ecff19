export const redactedMarker = '[redacted]';

/** A credential's pattern, and what it leaves of a match (by default nothing but the marker). */
type SecretPattern = { pattern: RegExp; keep?: (...groups: string[]) => string };

/**
 * Key names whose value is a credential, in config files, `.env` lines, YAML and JSON: the key may say so anywhere
 * (`DB_PASSWORD`, `client_secret`, `AWS_SECRET_ACCESS_KEY`, `"apiKey"`), or end in `token` (`access_token`). The
 * parts around the word are bounded, so a long run of word characters costs linear time, not quadratic.
 */
const secretKey = String.raw`(?<![\w.-])(?:[\w.-]{0,40}?(?:_authToken|_auth|password|passwd|secret|api[_-]?key|private[_-]?key)[\w.-]{0,40}|[\w.-]{0,40}?token)`;

/** A quoted value, its escaped quotes and backslashes inside it (`"a\\"b"`), or a bare one up to a separator. */
const settingValue = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\s,;}]+`;

/** A password given on a command line: a quoted one whole, a bare one up to the next space. */
const argumentValue = String.raw`'[^'\n]*'|"[^"\n]*"|[^\s'"]+`;

/** The option before a command line's password stays; the password is masked. */
const keepOption = (_match: string, option = '') => `${option}${redactedMarker}`;

/** curl's `-u user:password` and `--user=user:password`, quoted or not: the user stays. */
const curlUserPassword: SecretPattern = {
  pattern: /(\s(?:-u|--user)(?:[ \t]+|=)?)(?:(['"])([^'"\s:]*:)[^'"\n]+|([^\s:'"]+:)[^\s'"]+)/g,
  keep: (_match, option = '', quote = '', quotedUser = '', user = '') =>
    `${option}${quote}${quotedUser}${user}${redactedMarker}`,
};
/** The MySQL clients' `-pPassword`, only attached: `-p` alone prompts, and a word after it is the database. */
const attachedPassword: SecretPattern = {
  pattern: new RegExp(String.raw`(\s-p)(?:${argumentValue})`, 'g'),
  keep: keepOption,
};
/** `--password X`: psql takes no value there (X is its database), but a reader who wrote it meant a password. */
const spacedPassword: SecretPattern = {
  pattern: new RegExp(String.raw`(\s--password[ \t]+)(?!-)(?:${argumentValue})`, 'g'),
  keep: keepOption,
};

/**
 * A command line of one of `commands`, to the end of its line, with the passwords among its arguments masked by
 * `options` (`--password=X` and `PGPASSWORD=X` are settings, masked with the others below).
 */
const commandLine = (commands: string, options: readonly SecretPattern[]): SecretPattern => ({
  pattern: new RegExp(String.raw`(?<![\w-])(${commands})(?![\w-])([^\n]{0,2000})`, 'g'),
  keep: (_match, command = '', line = '') => `${command}${maskWith(line, options)}`,
});

/**
 * Credentials that show up in questions and screenshots of terminals and config files (npm and GitLab tokens, API
 * keys, private keys, auth headers, passwords in settings, command lines and connection URLs, JSON Web Tokens, the
 * handbook's own tokens). Found in text before it is sent to a model provider or kept in the questions and search
 * logs. Our own patterns rather than a library's: secretlint (the maintained rule set) runs its rules in an
 * asynchronous lint engine with a configuration loader and reports findings, where this is one synchronous
 * string-to-string call on every question and search, with no dependency.
 */
const secretPatterns: readonly SecretPattern[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  // An Authorization header, any case and scheme (`bearer`, GitHub's `token`), or a bare credential of 16 or more.
  {
    pattern:
      /\b(authorization\s*:[ \t]*)(?:(?:bearer|basic|token|bot|apikey|api-key|key|dpop)[ \t]+[^\s'"]+|[A-Za-z0-9._~+/=-]{16,})/gi,
    keep: (_match, header = '') => `${header}${redactedMarker}`,
  },
  // Passwords on the command lines of curl and of the MySQL and PostgreSQL clients.
  commandLine('curl', [curlUserPassword]),
  commandLine('mysql(?:dump|admin|import|show|check)?|mariadb(?:-dump)?', [attachedPassword, spacedPassword]),
  commandLine('psql|pg_(?:dump|dumpall|restore)', [spacedPassword]),
  {
    pattern:
      /\b(npm_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g,
  },
  // An AWS key id, and the 40-character secret written beside it (a credentials CSV, `aws configure`'s echo).
  { pattern: /\bAKIA[0-9A-Z]{16}\b(?:[\s,;:"'=|]+[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+]))?/g },
  // The secret access key after its name and only spaces (`aws_secret_access_key wJalr...`, `aws configure`'s prompt).
  // Each run of spaces follows a different mark (the name, `[None]`, `:`), so a long run is read one way only.
  {
    pattern:
      /\b((?:aws[_ ])?secret[_ ]?access[_ ]?key["']?[^\S\n]*(?:\[[^\]\n]{0,40}\][^\S\n]*)?(?:[:=][^\S\n]*)?["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
    keep: (_match, name = '') => `${name}${redactedMarker}`,
  },
  { pattern: /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|xox[abprs]-[A-Za-z0-9-]{10,})\b/g },
  // Stripe's secret and restricted keys, Google OAuth client secrets, SendGrid keys.
  { pattern: /\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|GOCSPX-[A-Za-z0-9_-]{20,}|SG\.[\w-]{16,}\.[\w-]{16,})/g },
  // A Slack incoming webhook: its path is the credential, the host stays.
  {
    pattern: /\b(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,}/g,
    keep: (_match, start = '') => `${start}${redactedMarker}`,
  },
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
    pattern: new RegExp(String.raw`(${secretKey})(["']?\s*[=:]\s*)(${settingValue})`, 'gi'),
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
  // `bearer` in lower case only before a credential with a digit: "the bearer of bad news" stays.
  { pattern: /\b(?:Bearer|Basic|bearer(?=\s+[A-Za-z0-9._~+/=-]*\d))\s+[A-Za-z0-9._~+/=-]{16,}/g },
];

/** The text with each pattern's matches replaced in turn, as the pattern keeps them. */
function maskWith(text: string, patterns: readonly SecretPattern[]): string {
  let redacted = text;
  for (const { pattern, keep } of patterns) {
    redacted = redacted.replace(pattern, (...match: string[]) => (keep ? keep(...match) : redactedMarker));
  }
  return redacted;
}

/** The text with every credential-looking string replaced by "[redacted]"; the key name of `key=value` stays. */
export function redactSecrets(text: string): string {
  return maskWith(text, secretPatterns);
}
