import type { TextPiece } from '@acme/contract';
import { analyze, wordPattern } from './analyze.js';
import { remembered } from './remembered.js';

/** Words longer than this are analysed each time rather than remembered: no word of the docs comes near it. */
const longestRememberedWord = 64;
/** The terms of the words shown lately: analysing each word of every title and snippet anew was over half a keystroke. */
const rememberedTerms = remembered((word): readonly string[] => analyze(word), { entries: 10_000 });
const wordTerms = (word: string) => (word.length > longestRememberedWord ? analyze(word) : rememberedTerms(word));

const isMatched = (word: string, matched: ReadonlySet<string>) => wordTerms(word).some((term) => matched.has(term));

/** A text cut into pieces, the words whose terms the query matched marked, so the browser can draw them. */
export function highlight(text: string, matched: ReadonlySet<string>): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const found of text.matchAll(wordPattern)) {
    const start = found.index ?? 0;
    if (!isMatched(found[0], matched)) continue;
    if (start > last) pieces.push({ text: text.slice(last, start), match: false });
    pieces.push({ text: found[0], match: true });
    last = start + found[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), match: false });
  return pieces;
}

/** At most `before` characters ahead of the first match and `length` in all, cut at spaces, marked with ellipses. */
export function around(text: string, matched: ReadonlySet<string>, before = 50, length = 160): string {
  if (text.length <= length) return text;
  const first = [...text.matchAll(wordPattern)].find((found) => isMatched(found[0], matched));
  let start = Math.max(0, (first?.index ?? 0) - before);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + length);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
