/**
 * Edits of an answer's markdown by ranges of its source: made from the end, nested ones on a later pass over the text
 * parsed again, until nothing is left to change.
 */

/** A change to the answer's text: the range it replaces and what takes its place. */
export type Edit = { start: number; end: number; replacement: string };

/**
 * The text with its edits made, from the end so earlier offsets stay valid. An edit inside another one (an image in a
 * link being replaced) waits: the outer one's words are the original's, so the caller parses the result again and
 * makes the inner one on the next pass.
 */
function spliced(text: string, edits: readonly Edit[]): string {
  const outermost: Edit[] = [];
  for (const edit of [...edits].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = outermost.at(-1);
    if (last && edit.start < last.end) continue;
    outermost.push(edit);
  }
  let result = text;
  for (const { start, end, replacement } of outermost.reverse()) {
    result = `${result.slice(0, start)}${replacement}${result.slice(end)}`;
  }
  return result;
}

/** Passes over an answer's nested links; an answer nested deeper than this loses every bracket instead. */
const mostPasses = 8;

/** Edits `markdown` until a pass finds nothing left to change (`editsOf` sees the text as it is by then). */
export function untilSettled(markdown: string, editsOf: (text: string) => Edit[]): string {
  let text = markdown;
  for (let pass = 0; pass < mostPasses; pass += 1) {
    const edits = editsOf(text);
    if (edits.length === 0) return text;
    const next = spliced(text, edits);
    if (next === text) return text;
    text = next;
  }
  return editsOf(text).length === 0 ? text : text.replace(/[[\]<>!]/g, '\\$&');
}

/** Code that shows `text` as written: its fence is longer than any run of backticks in it. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
