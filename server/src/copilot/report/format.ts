import type { InsightsSummary } from '../../insights/summary.js';
import type { ReportGroup } from './group.js';

export type Report = {
  generatedAt: Date;
  since: Date | undefined;
  limit: number;
  groups: ReportGroup[];
  /** The insights page's figures for the same period; absent from reports made without them. */
  summary?: InsightsSummary | undefined;
};

const minute = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');
/**
 * Control characters (C0, DEL, C1) could drive the maintainer's terminal: escape sequences, fake links, hidden lines.
 * Invisible format characters (\p{Cf}: bidi overrides and isolates, zero-width spaces and joiners) could reorder or
 * hide what a line says ("Trojan Source"); the line and paragraph separators could break one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/**
 * What JSON.stringify leaves raw but a terminal, a log viewer or a JavaScript reader of the output may act on: DEL and
 * the C1 controls, the line and paragraph separators, and every invisible format character (the bidi controls among
 * them). Escaped as \uXXXX, the JSON still says the same.
 */
const unsafeInJson = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
/** One \uXXXX per UTF-16 unit: a character past U+FFFF (a tag character) is its surrogate pair, as JSON writes it. */
function escapeForJson(character: string): string {
  let escaped = '';
  for (let index = 0; index < character.length; index += 1) {
    escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(controlCharacters, '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The report as Markdown, readable as plain text in a terminal. Times are UTC; no stored text reaches it raw. */
export function formatReportText(report: Report): string {
  const items = report.groups.flatMap((group) => group.items);
  const ratedDown = items.filter((item) => item.kind === 'rated-down').length;
  const period = report.since
    ? `${minute(report.since)} to ${minute(report.generatedAt)} UTC`
    : `up to ${minute(report.generatedAt)} UTC`;
  const lines = [`# Dev Copilot report, ${period}`, ''];
  if (report.summary) lines.push(...summaryLines(report.summary), '');
  if (items.length === 0) {
    lines.push('No answers rated down and no questions the docs could not answer in this period.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `${ratedDown} answer${ratedDown === 1 ? '' : 's'} rated down and ${items.length - ratedDown} question${items.length - ratedDown === 1 ? '' : 's'} the docs did not answer, near ${report.groups.filter((group) => group.page).length} page(s).`,
  );
  if (items.length >= report.limit) lines.push(`Only the newest ${report.limit} are shown; raise --limit to see more.`);
  for (const group of report.groups) {
    const counts = [
      group.ratedDown ? `${group.ratedDown} rated down` : '',
      group.closest ? `${group.closest} closest only` : '',
      group.notCovered ? `${group.notCovered} not covered` : '',
    ].filter(Boolean);
    const heading = group.page
      ? `${oneLine(group.page.title, 200)} (${oneLine(group.page.url, 500)})`
      : 'No page came near';
    lines.push('', `## ${heading}: ${counts.join(', ')}`, '');
    for (const item of group.items) {
      const what =
        item.kind === 'rated-down' ? 'rated down' : item.confidence === 'closest' ? 'closest only' : 'not covered';
      lines.push(`- ${minute(item.at)} ${what}: "${oneLine(item.question ?? '(question not found)', 300)}"`);
      if (item.comment) lines.push(`  - comment: "${oneLine(item.comment, 500)}"`);
      if (item.kind === 'rated-down' && item.confidence === 'closest') {
        lines.push('  - the docs only came close to this question');
      } else if (item.kind === 'rated-down' && item.covered === false) {
        lines.push('  - the docs did not cover this question');
      }
      if (item.sources.length > 0) {
        const sources = item.sources.map((source) => `${oneLine(source.title, 200)} (${oneLine(source.url, 500)})`);
        lines.push(`  - sources: ${sources.join('; ')}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const readers = (count: number) => `${count} reader${count === 1 ? '' : 's'}`;

const percent = (part: number, whole: number) => (whole === 0 ? '0 %' : `${Math.round((part / whole) * 100)} %`);

/** The insights page's headline figures, as the report's opening lines. */
function summaryLines({ questions, unansweredTopics, searches }: InsightsSummary): string[] {
  const lines = [
    `${questions.total} question${questions.total === 1 ? '' : 's'}: ${percent(questions.answered, questions.total)} answered, ${percent(questions.closest, questions.total)} closest page only, ${percent(questions.none, questions.total)} not covered.`,
    `${searches.total} search${searches.total === 1 ? '' : 'es'}: ${searches.withoutResult} found nothing, ${searches.withoutClick} had no result opened.`,
  ];
  if (unansweredTopics.length > 0) {
    lines.push('', 'Topics the docs do not answer, most readers first:');
    for (const topic of unansweredTopics) {
      const page = topic.page ? ` (extend ${oneLine(topic.page.url, 500)})` : ' (no page came near)';
      lines.push(`- ${oneLine(topic.label, 100)}: ${readers(topic.readers)}${page}`);
    }
  }
  if (searches.noResult.length > 0) {
    lines.push('', 'Searches that found nothing, most readers first:');
    for (const miss of searches.noResult) {
      lines.push(`- "${oneLine(miss.query, 200)}": ${readers(miss.readers)}, ${miss.searches}x`);
    }
  }
  return lines;
}

/** The report for machines: the same groups, dates as ISO strings; no stored text reaches it raw either. */
export function formatReportJson(report: Report): string {
  return `${JSON.stringify(
    {
      generatedAt: report.generatedAt,
      since: report.since ?? null,
      limit: report.limit,
      groups: report.groups,
      summary: report.summary ?? null,
    },
    null,
    2,
  ).replace(unsafeInJson, escapeForJson)}\n`;
}
