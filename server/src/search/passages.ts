import { analyze } from './analyze.js';
import { type AnswerKind, holdsKind } from './answer-kind.js';
import type { Block, DocSection } from './doc-page.js';

/** One quotable unit of a section: a sentence, a list item, a table row or a code block. */
type Unit = {
  /** Position in the section, for putting quotes back in reading order. */
  order: number;
  /** The block it belongs to: list items and table rows are shown with their list or table. */
  block: number;
  /** Its place in the block: the sentence, item or row number. */
  item: number;
  kind: Block['kind'];
  markdown: string;
  terms: Set<string>;
  /** A sentence that leads into the block after it ("Run:", or a numbered procedure) is quoted with that block. */
  leadsIn: boolean;
};

const sentenceEnd = /(?<=[.!?])\s+(?=[A-Z0-9`*["(])/;
/** Enough to hold a key fact with its context; a numbered procedure may run longer, since it is kept whole. */
const budget = 600;
const longestProcedure = 15;
const longestCode = 25;
/** A code block matches many words by its length alone; it must match better than prose to be quoted first. */
const codeWeight = 0.7;
/** Further units are quoted when they match at least this share of the best one. */
const relevantShare = 0.35;
/** A unit that holds the kind of thing asked for first (a duration, a command) outranks one that only shares words. */
const kindBonus = 0.3;
/** A pitfall's "Symptom:" restates the reader's question; its "Fix:" is the answer. */
const symptomLabel = /^\*\*Symptoms?:\*\*/;
const fixLabel = /^\*\*(Fix|Solution|What to do):\*\*/;

/** What a reader sees of inline markdown: link texts, no code or emphasis marks, entities as characters. */
const plainOf = (markdown: string) =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** A section's units, split and analysed once per build: every search result and answer reads them again. */
const unitsByBlocks = new WeakMap<readonly Block[], Unit[]>();
function unitsOf(section: Pick<DocSection, 'blocks'>): Unit[] {
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
      const sentences = block.markdown.split(sentenceEnd);
      sentences.forEach((sentence, position) => {
        const last = position === sentences.length - 1;
        const procedureNext = next?.kind === 'list' && next.ordered;
        const leadsIn = last && ((/:$/.test(sentence) && next !== undefined && next.kind !== 'text') || procedureNext);
        add(index, position, 'text', sentence, leadsIn);
      });
    } else if (block.kind === 'list') {
      block.items.forEach((item, position) => {
        add(index, position, 'list', item);
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

/**
 * The matched terms' weight, damped for long units: a code block or long sentence matches many words by its length
 * alone.
 */
function scoreOf(unit: Unit, wanted: ReadonlySet<string>, weightOf: (term: string) => number): number {
  const matched = [...unit.terms].reduce((sum, term) => sum + (wanted.has(term) ? weightOf(term) : 0), 0);
  return ((unit.kind === 'code' ? codeWeight : 1) * matched) / Math.sqrt(Math.max(1, unit.terms.size / 10));
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The markdown of some units of one block, shown as the block shows them. */
function render(block: Block, units: readonly Unit[], whole: boolean): string {
  if (block.kind === 'text') return units.map((unit) => unit.markdown).join(' ');
  if (block.kind === 'code') {
    const lines = block.code.split('\n');
    const shown = lines.length > longestCode ? [...lines.slice(0, longestCode), '…'] : lines;
    const fence = fenceFor(block.code);
    return `${fence}${block.language}\n${shown.join('\n')}\n${fence}`;
  }
  if (block.kind === 'list') {
    const items = whole ? block.items.map((_, position) => position) : units.map((unit) => unit.item);
    return items
      .map((position) => `${block.ordered ? `${position + 1}.` : '-'} ${block.items[position] ?? ''}`)
      .join('\n');
  }
  const rows = whole ? block.rows : units.map((unit) => block.rows[unit.item] ?? []);
  return [
    `| ${block.header.map(cell).join(' | ')} |`,
    `| ${block.header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

const isOrderedList = (section: Pick<DocSection, 'blocks'>, block: number) => {
  const found = section.blocks[block];
  return found?.kind === 'list' && found.ordered;
};

/** A code fence longer than any run of backticks inside the code, so the code cannot close it. */
const fenceFor = (code: string) =>
  '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((run) => run[0].length + 1)));

/**
 * The parts of a section that answer the question, as markdown: the best-matching sentence, item, row or code block
 * first, then the others that match well, in reading order. A numbered procedure is kept whole; a sentence that leads
 * into a list or code block brings it along. `wanted` are the section's terms the question matched, weighted by rarity.
 */
export function answerPassages(
  section: Pick<DocSection, 'blocks'>,
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
  kinds: readonly AnswerKind[] = [],
): string {
  const units = unitsOf(section);
  if (units.length === 0) return '';
  const holdsAsked = (unit: Unit) =>
    kinds.slice(0, 1).some((kind) =>
      holdsKind(kind, {
        markdown: unit.markdown,
        code: unit.kind === 'code',
        step: unit.kind === 'list' && isOrderedList(section, unit.block),
      }),
    );
  const symptomBest = units.some((unit) => symptomLabel.test(unit.markdown));
  const scored = units.map((unit) => {
    let score = scoreOf(unit, wanted, weightOf);
    if (score > 0 && holdsAsked(unit)) score *= 1 + kindBonus;
    return { unit, score };
  });
  // In a pitfall, the fix answers what the symptom describes: it goes first, as far as its paragraph runs.
  const fix = symptomBest ? units.find((unit) => fixLabel.test(unit.markdown)) : undefined;
  if (fix) {
    const best = Math.max(...scored.map((entry) => entry.score));
    for (const entry of scored) {
      if (entry.unit === fix) entry.score = best * 2 + 1;
      else if (entry.unit.block === fix.block) entry.score = Math.max(entry.score, best);
    }
  }
  const ranked = [...scored].sort(
    (first, second) => second.score - first.score || first.unit.order - second.unit.order,
  );
  const top = ranked[0];
  if (!top) return '';

  const chosen = new Set<Unit>();
  let length = 0;
  const take = (unit: Unit) => {
    if (chosen.has(unit)) return;
    chosen.add(unit);
    length += unit.markdown.length;
    if (unit.leadsIn) {
      // A numbered procedure comes whole; another list, table or code block as far as the budget allows.
      const following = units.filter((each) => each.block === unit.block + 1);
      const procedure = following[0]?.kind === 'list' && isOrderedList(section, following[0].block);
      for (const [position, other] of following.entries()) {
        if (procedure || position < 3 || length + other.markdown.length <= budget) take(other);
      }
    }
  };
  if (top.score === 0) {
    // Only the heading matched: the section's opening says what it is about.
    for (const unit of units) if (length < budget / 2 || chosen.size === 0) take(unit);
  } else {
    take(top.unit);
    // The sentence after the best one often finishes its thought (the number, the command).
    const after = units[top.unit.order + 1];
    if (top.unit.kind === 'text' && after?.block === top.unit.block) take(after);
    for (const { unit, score } of ranked.slice(1)) {
      if (score < top.score * relevantShare || length + unit.markdown.length > budget) continue;
      take(unit);
    }
  }

  // Group the chosen units by block; the block of the best unit comes first, the rest in reading order.
  const blocks = [...new Set([...chosen].map((unit) => unit.block))].sort((first, second) => first - second);
  const firstBlock = top.score > 0 ? top.unit.block : blocks[0];
  const ordered = [firstBlock, ...blocks.filter((block) => block !== firstBlock)];
  return ordered
    .flatMap((blockIndex) => {
      const block = blockIndex === undefined ? undefined : section.blocks[blockIndex];
      if (!block) return [];
      const picked = units.filter((unit) => unit.block === blockIndex && chosen.has(unit));
      const procedure =
        block.kind === 'list' && block.ordered && block.items.length <= longestProcedure && picked.length > 0;
      return [render(block, picked, procedure)];
    })
    .join('\n\n');
}

/**
 * The largest share of the `asked` terms' weight that one sentence, item, row or code block of the section holds: a
 * section that shares the question's words only scattered over unrelated sentences is less often its answer.
 */
export function bestUnitShare(section: Pick<DocSection, 'blocks'>, asked: ReadonlyMap<string, number>): number {
  const total = [...asked.values()].reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return 0;
  let share = 0;
  for (const unit of unitsOf(section)) {
    let held = 0;
    for (const [term, weight] of asked) if (unit.terms.has(term)) held += weight;
    share = Math.max(share, held / total);
  }
  return share;
}

/** The sentence of a section that best matches the question, for a search result's snippet. */
export function bestSentence(
  section: Pick<DocSection, 'blocks'>,
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
): string {
  let best: { text: string; score: number } | undefined;
  for (const unit of unitsOf(section)) {
    if (unit.kind === 'code') continue;
    const score = scoreOf(unit, wanted, weightOf);
    if (!best || score > best.score) best = { text: plainOf(unit.markdown), score };
  }
  return best?.text ?? '';
}
