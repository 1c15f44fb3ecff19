import { analyze } from './analyze.js';
import { type AnswerKind, holdsKind } from './answer-kind.js';
import type { Block, DocSection } from './doc-page.js';
import { plainOf, type Unit, unitsOf } from './section-units.js';

/** A code block matches many words by its length alone; it must match better than prose to be quoted first. */
const codeWeight = 0.7;
/** A unit that holds the kind of thing asked for first (a duration, a command) outranks one that only shares words. */
const kindBonus = 0.3;
/** A pitfall's "Symptom:" restates the reader's question; its "Fix:" is the answer. */
const symptomLabel = /^\*\*Symptoms?:\*\*/;
const fixLabel = /^\*\*(Fix|Solution|What to do):\*\*/;

/** How well one unit answers the question, and whether it holds the kind of thing asked for first. */
export type ScoredUnit = { unit: Unit; score: number; holdsAsked: boolean };

/**
 * The matched terms' weight, damped for long units: a code block or long sentence matches many words by its length
 * alone.
 */
export function scoreOf(unit: Unit, wanted: ReadonlySet<string>, weightOf: (term: string) => number): number {
  const matched = [...unit.terms].reduce((sum, term) => sum + (wanted.has(term) ? weightOf(term) : 0), 0);
  return ((unit.kind === 'code' ? codeWeight : 1) * matched) / Math.sqrt(Math.max(1, unit.terms.size / 10));
}

export const isOrderedList = (section: Pick<DocSection, 'blocks'>, block: number) => {
  const found = section.blocks[block];
  return found?.kind === 'list' && found.ordered;
};

/** Whether one unit of a section holds the kind of thing asked for (a duration, a command, a step). */
export const unitHoldsKind = (section: Pick<DocSection, 'blocks'>, unit: Unit, kind: AnswerKind) =>
  holdsKind(kind, {
    markdown: unit.markdown,
    code: unit.kind === 'code',
    step: unit.kind === 'list' && isOrderedList(section, unit.block),
  });

/** A table's header, analysed once per build. */
const headerTermsByBlock = new WeakMap<Block, Set<string>>();
function headerTerms(block: Block | undefined): ReadonlySet<string> {
  if (block?.kind !== 'table') return new Set();
  const cached = headerTermsByBlock.get(block);
  if (cached) return cached;
  const terms = new Set(analyze(plainOf(block.header.join(' '))));
  headerTermsByBlock.set(block, terms);
  return terms;
}

/**
 * A table row that matches the question also answers what its header names: in "SEV1 | ... | Every 30 minutes"
 * under "Severity | ... | Update cadence", the row holds the answer to "how often must I post updates in a SEV1".
 */
function headerWeight(
  section: Pick<DocSection, 'blocks'>,
  unit: Unit,
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
): number {
  if (unit.kind !== 'table') return 0;
  let weight = 0;
  for (const term of headerTerms(section.blocks[unit.block])) {
    if (wanted.has(term) && !unit.terms.has(term)) weight += weightOf(term);
  }
  return weight;
}

/** Every unit of a section, scored for the question: its words, its table header, and the kind of thing it holds. */
export function scoredUnits(
  section: Pick<DocSection, 'blocks'>,
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
  kinds: readonly AnswerKind[],
): ScoredUnit[] {
  const units = unitsOf(section);
  const [firstKind] = kinds;
  const scored = units.map((unit) => {
    const holdsAsked = firstKind !== undefined && unitHoldsKind(section, unit, firstKind);
    let score = scoreOf(unit, wanted, weightOf);
    if (score > 0) score += headerWeight(section, unit, wanted, weightOf);
    if (score > 0 && holdsAsked) score *= 1 + kindBonus;
    return { unit, score, holdsAsked };
  });
  // In a pitfall, the fix answers what the symptom describes: it goes first, as far as its paragraph runs.
  const fix = units.some((unit) => symptomLabel.test(unit.markdown))
    ? units.find((unit) => fixLabel.test(unit.markdown))
    : undefined;
  if (fix) {
    const best = Math.max(...scored.map((entry) => entry.score));
    for (const entry of scored) {
      if (entry.unit === fix) entry.score = best * 2 + 1;
      else if (entry.unit.block === fix.block) entry.score = Math.max(entry.score, best);
    }
  }
  return scored;
}

/** The score of a section's best unit: how well the one part of it that would be quoted first answers the question. */
export function keyUnitScore(
  section: Pick<DocSection, 'blocks'>,
  wanted: ReadonlySet<string>,
  weightOf: (term: string) => number,
  kinds: readonly AnswerKind[] = [],
): number {
  return Math.max(0, ...scoredUnits(section, wanted, weightOf, kinds).map((entry) => entry.score));
}
