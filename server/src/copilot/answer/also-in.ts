import type { AnswerKind } from '../../search/answer-kind.js';
import type { SearchHit } from '../../search/engine.js';
import { type Unit, unitsOf } from '../../search/section-units.js';
import { scoredUnits } from '../../search/unit-scores.js';

/**
 * Below the answer, the key line of the next best sections the answer did not quote: the best-ranked section is the
 * right one for about two questions in three, and one of the first three for nearly nine in ten (bench/questions).
 * A reader whose answer came from the wrong section sees the right one's key line without asking again, as a search
 * result shows its best sentence. At most two lines, from the first three sections.
 */
const alsoDepth = 3;
const alsoCount = 2;
/** A line longer than this is cut between words, code spans, links and bold runs, never inside one. */
const lineLimit = 300;
/** A code line short enough to show inline; a longer block would not read as one line. */
const inlineCodeLimit = 120;

/**
 * A code span (any run of backticks to the same run), a link or image, a bold run, or a word: the pieces a line is cut
 * between, so a cut never leaves code, a link or emphasis half written.
 */
const pieces = /(`+)[\s\S]*?\1|!?\[[^\]\n]*\]\([^)\n]*\)|\*\*[^*\n]+\*\*|\S+|\s+/g;

/** The line up to `limit` characters, cut between whole pieces with "…"; undefined when its first piece is longer. */
function cutLine(line: string, limit: number): string | undefined {
  let cut = '';
  for (const [piece] of line.matchAll(pieces)) {
    if (cut.length + piece.length > limit) break;
    cut += piece;
  }
  cut = cut.trimEnd();
  return cut ? `${cut}…` : undefined;
}

const inlineCode = (code: string) => {
  const longestRun = Math.max(0, ...[...code.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = '`'.repeat(longestRun + 1);
  // CommonMark takes one space off each end of a code span: room for code that starts or ends with a backtick.
  const padding = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${ticks}${padding}${code}${padding}${ticks}`;
};

/** One unit of a section as a single line of markdown, or nothing when it cannot be one (a long code block). */
function asLine(markdown: string, kind: string): string | undefined {
  if (kind === 'code') {
    const code = markdown.trim();
    return code.includes('\n') || code.length > inlineCodeLimit ? undefined : inlineCode(code);
  }
  const line = (kind === 'table' ? markdown.split(' | ').join(' · ') : markdown).replace(/\s+/g, ' ').trim();
  return line.length <= lineLimit ? line : cutLine(line, lineLimit);
}

/**
 * A sentence that introduces a list, table or code ("... must give the same result when repeated:") as one line with
 * the start of what it introduces, or nothing when that cannot follow on the line (a code block): alone, it promises
 * what the line does not show.
 */
function leadInLine(section: SearchHit, sentence: Unit): string | undefined {
  const [first, ...rest] = unitsOf(section).filter((unit) => unit.block === sentence.block + 1);
  const introduced = first && asLine(first.markdown, first.kind);
  return introduced ? asLine(`${sentence.markdown} ${introduced}${rest.length ? ' …' : ''}`, 'text') : undefined;
}

/** The best line of a section for the question: the unit that would be quoted first, as one line. */
function keyLine(
  section: SearchHit,
  weightOf: (term: string) => number,
  kinds: readonly AnswerKind[],
): string | undefined {
  const ranked = scoredUnits(section, section.matchedTerms, weightOf, kinds)
    .filter((entry) => entry.score > 0)
    .sort((first, second) => second.score - first.score || first.unit.order - second.unit.order);
  for (const { unit } of ranked) {
    const line = unit.leadsIn ? leadInLine(section, unit) : asLine(unit.markdown, unit.kind);
    if (line) return line;
  }
  return undefined;
}

/**
 * "Also in the handbook:" with the key line of up to two of the first three sections the answer does not quote, or
 * nothing when none of them holds a word of the question in its text. They are pointers, not what the answer rests on:
 * not among its sources (the insights count those as the pages answers rest on).
 */
export function alsoInHandbook(options: {
  hits: readonly SearchHit[];
  quoted: readonly SearchHit[];
  title: (hit: SearchHit) => string;
  weightOf: (term: string) => number;
  kinds: readonly AnswerKind[];
}): string | undefined {
  const quotedUrls = new Set(options.quoted.map((hit) => hit.url));
  const lines: string[] = [];
  for (const hit of options.hits.slice(0, alsoDepth)) {
    if (quotedUrls.has(hit.url) || lines.length === alsoCount) continue;
    const line = keyLine(hit, options.weightOf, options.kinds);
    if (!line) continue;
    lines.push(`- [${options.title(hit)}](${hit.url}): ${line}`);
  }
  return lines.length ? `Also in the handbook:\n\n${lines.join('\n')}` : undefined;
}
