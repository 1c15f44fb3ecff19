/**
 * Credentials that show up in screenshots of terminals and config files (npm and GitLab tokens, API keys, private
 * keys, auth headers, the handbook's own tokens). Found in text before it is sent to a model provider or kept in the questions log.
 */
const secretPatterns: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(npm_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g,
  /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16})\b/g,
  /\b(shpat|shpss|shpca|shppa)_[a-fA-F0-9]{20,}\b/g,
  // The handbook's own: personal tokens and the access and refresh tokens of coding agents (auth/tokens, auth/oauth).
  /\bacme_(pat|oat|ort)_[A-Za-z0-9_-]{20,}/g,
  /(_authToken|_auth|password|passwd|secret|api[_-]?key|token)(\s*[=:]\s*)("[^"\n]+"|'[^'\n]+'|\S+)/gi,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/g,
];

export const redactedMarker = '[redacted]';

/** The text with every credential-looking string replaced by "[redacted]"; the key name of `key=value` stays. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const pattern of secretPatterns) {
    redacted = redacted.replace(pattern, (...match: string[]) => {
      const [, key, separator] = match;
      return pattern.source.startsWith('(_authToken') && key && separator
        ? `${key}${separator}${redactedMarker}`
        : redactedMarker;
    });
  }
  return redacted;
}
