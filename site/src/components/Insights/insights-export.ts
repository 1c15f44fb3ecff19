import type { InsightsResponse } from '@acme/contract';

/** One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused for spreadsheets. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** `count` is questions, answers or searches; `readers`, how many readers asked or searched (topics and searches). */
const header = ['section', 'label', 'url', 'count', 'readers', 'answered', 'closest', 'none', 'detail'];

/** Everything the page shows as one CSV table, a `section` column saying which figure each row belongs to. */
export function insightsCsv(insights: InsightsResponse): string {
  const rows: Array<Array<string | number | null>> = [header];
  for (const day of insights.questions.perDay) {
    rows.push([
      'questions-per-day',
      day.day,
      null,
      day.answered + day.closest + day.none,
      null,
      day.answered,
      day.closest,
      day.none,
      null,
    ]);
  }
  for (const topic of insights.unansweredTopics) {
    rows.push([
      'unanswered-topic',
      topic.label,
      topic.page?.url ?? null,
      null,
      topic.readers,
      null,
      null,
      null,
      topic.examples.join(' | '),
    ]);
  }
  for (const page of insights.pagesAnswersRestOn) {
    rows.push(['page-answers-rest-on', page.title, page.url, page.answers, null, null, null, null, null]);
  }
  for (const page of insights.pagesRatedDown) {
    const comments = page.comments.map((comment) => comment.comment).join(' | ');
    rows.push(['page-rated-down', page.title, page.url, page.ratedDown, null, null, null, null, comments]);
  }
  for (const miss of insights.searches.noResult) {
    rows.push(['search-no-result', miss.query, null, miss.searches, miss.readers, null, null, null, miss.lastAt]);
  }
  for (const miss of insights.searches.noClick) {
    rows.push(['search-no-click', miss.query, null, miss.searches, miss.readers, null, null, null, miss.lastAt]);
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
