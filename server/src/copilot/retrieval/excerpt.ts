import type { DocSection } from './doc-page.js';
import { tokenize } from './tokenize.js';

const sentenceEnd = /(?<=[.!?:;])\s+(?=\S)/;

/** Cuts text to at most `maxChars`, on a word boundary, marking the cut with an ellipsis. */
function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, Math.max(0, maxChars - 1));
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/**
 * The run of whole sentences, at most `maxChars` long, that mentions the query's terms most often (distinct terms
 * first), for quoting a section without pasting all of it.
 */
export function excerpt(section: Pick<DocSection, 'text'>, query: string, maxChars: number): string {
  const sentences = section.text.split(sentenceEnd).filter((sentence) => sentence.length > 0);
  const wanted = new Set(tokenize(query));
  const sentenceTerms = sentences.map((sentence) => tokenize(sentence).filter((term) => wanted.has(term)));

  let best = { start: 0, end: 1, distinct: -1, hits: -1 };
  for (let start = 0; start < sentences.length; start++) {
    let length = -1;
    const matched: string[] = [];
    for (let end = start; end < sentences.length; end++) {
      length += (sentences[end]?.length ?? 0) + 1;
      if (length > maxChars && end > start) break;
      matched.push(...(sentenceTerms[end] ?? []));
      const distinct = new Set(matched).size;
      if (distinct > best.distinct || (distinct === best.distinct && matched.length > best.hits)) {
        best = { start, end: end + 1, distinct, hits: matched.length };
      }
    }
  }
  return shorten(sentences.slice(best.start, best.end).join(' '), maxChars);
}
