import { analyze } from './analyze.js';
import type { Block, DocSection } from './doc-page.js';

/** One quotable unit of a section: a sentence, a list item, a table row or a code block. */
export type Unit = {
  /** Position in the section, for putting quotes back in reading order. */
  order: number;
  /** The block it belongs to: list items and table rows are shown with their list or table. */
  block: number;
  /** Its place in the block: the sentence, item or row number. */
  item: number;
  kind: Block['kind'];
  markdown: string;
  terms: Set<string>;
  /**
   * A sentence that leads into the block after it ("Run:", or a numbered procedure), or a list's last item that ends
   * on a colon before a code block, is quoted with that block.
   */
  leadsIn: boolean;
};

const sentenceEnd = /(?<=[.!?])\s+(?=[A-Z0-9`*["(])/;
/** A sentence that is only a verdict ("No.", "**Yes.**"): the answer to a yes/no question, quoted with what follows. */
const verdict = /^\W*(yes|no|not yet|never|always)\W*$/i;

/** Inside a code span or a link's text the sentence goes on: `Blocked request. This host ...` is one quoted message. */
const opensSpan = (text: string) =>
  (text.match(/`/g)?.length ?? 0) % 2 === 1 || (text.match(/\[/g)?.length ?? 0) > (text.match(/\]/g)?.length ?? 0);

/** The sentences of a paragraph, a lone verdict joined to the sentence after it, a code span or link never split. */
function sentencesOf(markdown: string): string[] {
  const sentences: string[] = [];
  for (const sentence of markdown.split(sentenceEnd)) {
    const previous = sentences.at(-1);
    if (previous !== undefined && (verdict.test(previous) || opensSpan(previous))) {
      sentences[sentences.length - 1] = `${previous} ${sentence}`;
    } else sentences.push(sentence);
  }
  return sentences;
}

/** What a reader sees of inline markdown: link texts, no code or emphasis marks, entities as characters. */
export const plainOf = (markdown: string) =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/\\([<>#[\]])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** A section's units, split and analysed once per build: every search result and answer reads them again. */
const unitsByBlocks = new WeakMap<readonly Block[], Unit[]>();
export function unitsOf(section: Pick<DocSection, 'blocks'>): Unit[] {
  const cached = unitsByBlocks.get(section.blocks);
  if (cached) return cached;
  const units = splitIntoUnits(section);
  unitsByBlocks.set(section.blocks, units);
  return units;
}

function splitIntoUnits(section: Pick<DocSection, 'blocks'>): Unit[] {
  const units: Unit[] = [];
  const add = (block: number, item: number, kind: Block['kind'], markdown: string, leadsIn = false) => {
    units.push({
      order: units.length,
      block,
      item,
      kind,
      markdown,
      terms: new Set(analyze(plainOf(markdown))),
      leadsIn,
    });
  };
  section.blocks.forEach((block, index) => {
    const next = section.blocks[index + 1];
    if (block.kind === 'text') {
      const sentences = sentencesOf(block.markdown);
      sentences.forEach((sentence, position) => {
        const last = position === sentences.length - 1;
        const procedureNext = next?.kind === 'list' && next.ordered;
        const leadsIn = last && ((/:$/.test(sentence) && next !== undefined && next.kind !== 'text') || procedureNext);
        add(index, position, 'text', sentence, leadsIn);
      });
    } else if (block.kind === 'list') {
      // An item with a code block inside ("Dry-run expensive queries:") ends the list the code block follows.
      const codeNext = next?.kind === 'code';
      block.items.forEach((item, position) => {
        add(index, position, 'list', item, codeNext && position === block.items.length - 1 && /:$/.test(item));
      });
    } else if (block.kind === 'table') {
      block.rows.forEach((row, position) => {
        add(index, position, 'table', row.join(' | '));
      });
    } else {
      add(index, 0, 'code', block.code);
    }
  });
  return units;
}
