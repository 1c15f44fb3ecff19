/** About a screen of text: enough to search the docs with, small enough to quote back or put in a prompt. */
export const defaultMaxOcrCharacters = 2000;

/**
 * Tidies what OCR read from a screenshot: spaces collapsed within each line, blank lines and noise lines (two
 * characters or fewer, or no letter or digit at all, which is what icons, borders and cursor blocks come out as)
 * dropped, and the whole cut to `maxCharacters` at a line or word boundary.
 */
export function normalizeOcrText(raw: string, maxCharacters = defaultMaxOcrCharacters): string {
  const lines = raw
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 2 && /[\p{L}\p{N}]/u.test(line));
  const text = lines.join('\n');
  if (text.length <= maxCharacters) return text;
  const cut = text.slice(0, maxCharacters);
  const boundary = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  return (boundary > maxCharacters / 2 ? cut.slice(0, boundary) : cut).trimEnd();
}
