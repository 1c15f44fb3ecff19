import type { InsightsResponse } from '@acme/contract';

/** One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused for spreadsheets. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * `count` is questions, answers, ratings or searches; `readers`, how many readers asked, rated down or searched (topics,
 * pages rated down and searches), last so that the columns before it keep their places for tools that read them by
 * position.
 */
const header = ['section', 'label', 'url', 'count', 'answered', 'closest', 'none', 'detail', 'readers'];

/** Everything the page shows as one CSV table, a `section` column saying which figure each row belongs to. */
export function insightsCsv(insights: InsightsResponse): string {
  const rows: Array<Array<string | number | null>> = [header];
  for (const day of insights.questions.perDay) {
    const asked = day.answered + day.closest + day.none;
    rows.push(['questions-per-day', day.day, null, asked, day.answered, day.closest, day.none, null, null]);
  }
  for (const topic of insights.unansweredTopics) {
    const examples = topic.examples.join(' | ');
    rows.push([
      'unanswered-topic',
      topic.label,
      topic.page?.url ?? null,
      topic.count,
      null,
      null,
      null,
      examples,
      topic.readers,
    ]);
  }
  for (const page of insights.pagesAnswersRestOn) {
    rows.push(['page-answers-rest-on', page.title, page.url, page.answers, null, null, null, null, null]);
  }
  for (const page of insights.pagesRatedDown) {
    const comments = page.comments.map((comment) => comment.comment).join(' | ');
    rows.push(['page-rated-down', page.title, page.url, page.ratedDown, null, null, null, comments, page.readers]);
  }
  for (const [section, misses] of [
    ['search-no-result', insights.searches.noResult],
    ['search-no-click', insights.searches.noClick],
  ] as const) {
    for (const miss of misses)
      rows.push([section, miss.query, null, miss.searches, null, null, null, miss.lastAt, miss.readers]);
  }
  return `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Offers a file to save, made in the browser from what the page already shows. */
export function download(fileName: string, type: string, contents: string): void {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
