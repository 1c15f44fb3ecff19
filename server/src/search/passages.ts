import { analyze } from './analyze.js';
import type { AnswerKind } from './answer-kind.js';
import type { Block, DocSection } from './doc-page.js';
import { plainOf, type Unit, unitsOf } from './section-units.js';
import { isOrderedList, scoredUnits, scoreOf, unitHoldsKind } from './unit-scores.js';

/** Enough to hold a key fact with its context; a numbered procedure may run longer, since it is kept whole. */
const defaultBudget = 600;
const longestProcedure = 15;
const longestCode = 25;
/** A section no longer than this is quoted whole. */
const shortSection = 400;
/** Further units are quoted when they match at least this share of the best one, within the budget. */
const relevantShare = 0.35;
/**
 * Units this close to the best one are quoted even past the budget, at most `strongCount` of them: a long code block
 * led into by the best sentence must not crowd out the next sentence that holds the number.
 */
const strongShare = 0.5;
const strongCount = 2;
/** A table or list the question names is quoted whole up to this many rows or items. */
const shortBlockRows = 15;
const shortBlock = (block: Block | undefined) =>
  (block?.kind === 'table' && block.rows.length <= shortBlockRows) ||
  (block?.kind === 'list' && block.items.length <= shortBlockRows);
/**
 * A table this small is quoted whole once one of its rows is: its rows are read against each other, and the row that
 * answers often shares no word with the question (Wednesday falls in "Tuesday to Thursday"; only a freeze row names it).
 */
const smallTableRows = 6;
const smallTableCharacters = 600;
const smallTable = (block: Block | undefined) =>
  block?.kind === 'table' &&
  block.rows.length <= smallTableRows &&
  block.rows.reduce((sum, row) => sum + row.join(' | ').length, 0) <= smallTableCharacters;
/** A list or table the question names by its section's heading is quoted whole up to this length. */
const wholeListCharacters = 3 * defaultBudget;
/** The best unit holding the kind of thing asked for (the duration, the command) is quoted when it scores this much. */
const askedShare = 0.3;

/**
 * A long code block is shown as the run of lines that holds most of the question's words (the command, the option
 * asked for), with an ellipsis where lines are left out: its first lines are often only imports.
 */
function codeWindow(lines: readonly string[], wanted: ReadonlySet<string>): string[] {
  if (lines.length <= longestCode) return [...lines];
  const matches = lines.map((line) => analyze(line).filter((term) => wanted.has(term)).length);
  let start = 0;
  let most = -1;
  for (let first = 0; first + longestCode <= lines.length; first += 1) {
    const held = matches.slice(first, first + longestCode).reduce((sum, count) => sum + count, 0);
    if (held > most) {
      most = held;
      start = first;
    }
  }
  const end = start + longestCode;
  return [...(start > 0 ? ['…'] : []), ...lines.slice(start, end), ...(end < lines.length ? ['…'] : [])];
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The markdown of some units of one block, shown as the block shows them. */
function render(block: Block, units: readonly Unit[], whole: boolean, wanted: ReadonlySet<string>): string {
  if (block.kind === 'text') return units.map((unit) => unit.markdown).join(' ');
  if (block.kind === 'code') {
    const fence = fenceFor(block.code);
    return `${fence}${block.language}\n${codeWindow(block.code.split('\n'), wanted).join('\n')}\n${fence}`;
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

/** A code fence longer than any run of backticks inside the code, so the code cannot close it. */
const fenceFor = (code: string) =>
  '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((run) => run[0].length + 1)));

/** A unit that holds this share of what the question matched restates it: the reader's pasted error, their symptom. */
const restatedShare = 0.9;
/** How many units after a restated symptom are read for what to do about it. */
const followingUnits = 4;

function restates(unit: Unit, wanted: ReadonlySet<string>, weightOf: (term: string) => number): boolean {
  let total = 0;
  let held = 0;
  for (const term of wanted) {
    total += weightOf(term);
    if (unit.terms.has(term)) held += weightOf(term);
  }
  return total > 0 && held >= total * restatedShare;
}

/**
 * A question that only restates what a sentence of the section says (a pasted error line, a symptom, no "how" or
 * "when") is answered by what the section says next: the units after it, as far as a sentence that leads into a code
 * block or list, which comes along. The fix for "WebSocket connection to ... failed" is the config after it.
 */
function takeWhatFollows(units: readonly Unit[], restated: Unit, take: (unit: Unit) => void) {
  for (const unit of units.slice(restated.order + 1, restated.order + 1 + followingUnits)) {
    take(unit);
    if (unit.leadsIn || unit.kind !== 'text') return;
  }
}

/**
 * A code block that holds nothing but the words of its section's heading (`acme doctor` under "acme doctor") names
 * the command the section is about and says nothing of it: what it does is in what follows.
 */
function namesOnlyTheHeading(unit: Unit, heading: string | undefined): boolean {
  if (unit.kind !== 'code' || heading === undefined || unit.terms.size === 0) return false;
  const named = new Set(analyze(heading));
  return [...unit.terms].every((term) => named.has(term));
}

export type PassageOptions = {
  /** Characters of further units after the key ones. */
  budget?: number;
  /** The question names the section itself ("release window"): quote it from its opening, in reading order. */
  overview?: boolean;
  /** A second section beside the best one: its key part and what follows it, nothing past the budget. */
  besideBest?: boolean;
  /** The question names the section's heading: a short list or table holding its best unit is quoted whole (if not long). */
  wholeList?: boolean;
};

/**
 * The parts of a section that answer the question, as markdown: the best-matching sentence, item, row or code block
 * first, then the unit holding the kind of thing asked for and the others that match well, in reading order. A
 * numbered procedure is kept whole; a sentence that leads into a list or code block brings it along. `wanted` are the
 * section's terms the question matched, weighted by rarity.
 */
export function answerPassages(
  section: Pick<DocSection, 'blocks'> & { heading?: string | undefined },
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
  kinds: readonly AnswerKind[] = [],
  options: PassageOptions = {},
): string {
  const budget = options.budget ?? defaultBudget;
  const units = unitsOf(section);
  if (units.length === 0) return '';
  const ranked = scoredUnits(section, wanted, weightOf, kinds).sort(
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
    if (unit.kind === 'table' && smallTable(section.blocks[unit.block])) {
      for (const row of units) if (row.block === unit.block) take(row);
    }
    if (unit.leadsIn) {
      // A numbered procedure comes whole; another list, table or code block as far as the budget allows.
      const following = units.filter((each) => each.block === unit.block + 1);
      const procedure = following[0]?.kind === 'list' && isOrderedList(section, following[0].block);
      for (const [position, other] of following.entries()) {
        if (procedure || position < 3 || length + other.markdown.length <= budget) take(other);
      }
    }
  };
  const keyFirst = top.score > 0 && !options.overview;
  if (!keyFirst) {
    // Only the heading matched, or the question names the section: its opening says what it is about.
    const opening = options.overview ? budget : budget / 2;
    for (const unit of units) {
      // A short table or list the question names is shown whole once begun: its last row answers as much as its first.
      const previous = units[unit.order - 1];
      const whole =
        options.overview &&
        shortBlock(section.blocks[unit.block]) &&
        previous?.block === unit.block &&
        chosen.has(previous);
      if (length < opening || chosen.size === 0 || whole) take(unit);
    }
  } else {
    take(top.unit);
    const list = units.filter((unit) => unit.block === top.unit.block);
    const listLength = list.reduce((sum, unit) => sum + unit.markdown.length, 0);
    if (options.wholeList && shortBlock(section.blocks[top.unit.block]) && listLength <= wholeListCharacters) {
      for (const unit of list) take(unit);
    }
    // The sentence after the best one often finishes its thought (the number, the command).
    const after = units[top.unit.order + 1];
    if (top.unit.kind === 'text' && after?.block === top.unit.block) take(after);
    if (kinds.length === 0 && restates(top.unit, wanted, weightOf)) takeWhatFollows(units, top.unit, take);
    else if (namesOnlyTheHeading(top.unit, section.heading)) takeWhatFollows(units, top.unit, take);
    const asked = top.holdsAsked ? undefined : ranked.find((entry) => entry.holdsAsked && entry.score > 0);
    if (!options.besideBest) {
      if (asked && asked.score >= top.score * askedShare) take(asked.unit);
      for (const { unit, score } of ranked.slice(1, 1 + strongCount)) if (score >= top.score * strongShare) take(unit);
    }
    for (const { unit, score } of ranked.slice(1)) {
      if (score < top.score * relevantShare || length + unit.markdown.length > budget) continue;
      take(unit);
    }
  }

  // A section this short is read at a glance: it is quoted whole, the best unit's block still first. A FAQ's fix for a
  // symptom ("Move it to ~/code") shares no word with the question, which the sentence beside it does.
  if (units.reduce((sum, unit) => sum + unit.markdown.length, 0) <= shortSection) for (const unit of units) take(unit);

  // Group the chosen units by block; the block of the best unit comes first, the rest in reading order. A sentence
  // that leads into a list, table or code block stays right before it, whichever of the two holds the best unit.
  const blocks = [...new Set([...chosen].map((unit) => unit.block))].sort((first, second) => first - second);
  const ledInto = new Set([...chosen].filter((unit) => unit.leadsIn).map((unit) => unit.block + 1));
  const runs: number[][] = [];
  for (const block of blocks) {
    const run = runs.at(-1);
    if (run && ledInto.has(block) && run.at(-1) === block - 1) run.push(block);
    else runs.push([block]);
  }
  const firstBlock = keyFirst ? top.unit.block : blocks[0];
  const firstRun = runs.find((run) => firstBlock !== undefined && run.includes(firstBlock)) ?? [];
  const ordered = [...firstRun, ...runs.filter((run) => run !== firstRun).flat()];
  return ordered
    .flatMap((blockIndex) => {
      const block = blockIndex === undefined ? undefined : section.blocks[blockIndex];
      if (!block) return [];
      const picked = units.filter((unit) => unit.block === blockIndex && chosen.has(unit));
      const procedure =
        block.kind === 'list' && block.ordered && block.items.length <= longestProcedure && picked.length > 0;
      return [render(block, picked, procedure, wanted)];
    })
    .join('\n\n');
}

/**
 * The largest share of the `asked` terms' weight that one sentence, item, row or code block of the section holds: a
 * section that shares the question's words only scattered over unrelated sentences is less often its answer.
 */
export function bestUnitShare(
  section: Pick<DocSection, 'blocks'>,
  asked: ReadonlyMap<string, number>,
  /** Only the units that hold this kind of thing (the duration, the command asked for). */
  kind?: AnswerKind,
): number {
  const total = [...asked.values()].reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return 0;
  let share = 0;
  for (const unit of unitsOf(section)) {
    if (kind !== undefined && !unitHoldsKind(section, unit, kind)) continue;
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
