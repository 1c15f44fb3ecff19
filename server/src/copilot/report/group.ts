import type { DocPage, ReportItem } from '../../store/questions.js';

/** The items closest to one doc page, newest first; `page` is null for those no page came near. */
export type ReportGroup = {
  page: DocPage | null;
  ratedDown: number;
  /** Questions the handbook only came close to answering (their answer quoted the closest section). */
  closest: number;
  notCovered: number;
  items: ReportItem[];
};

/** Where an item belongs: the page logged as nearest, else the page of the answer's first source. */
export function pageOf(item: ReportItem): DocPage | null {
  if (item.nearestPage) return { url: pageUrl(item.nearestPage.url), title: item.nearestPage.title };
  const [source] = item.sources;
  if (!source) return null;
  return { url: pageUrl(source.url), title: source.title.split(' › ')[0] ?? source.title };
}

/** A section link and its page are one place to fix: `/faqs/#npm-fails` belongs to `/faqs/`. */
const pageUrl = (url: string) => url.split('#')[0] || url;

/**
 * Groups the items by page. Groups with more items come first, ties broken by the newest item: the report is read to
 * decide what to fix, and a page that failed five readers matters more than one that failed one reader a minute ago
 * (`--since` already keeps old items out). Items no page came near come last: there is no page to fix, only a page
 * to write.
 */
export function groupReportItems(items: readonly ReportItem[]): ReportGroup[] {
  const groups = new Map<string, ReportGroup>();
  for (const item of [...items].sort((a, b) => b.at.getTime() - a.at.getTime())) {
    const page = pageOf(item);
    const key = page?.url ?? '';
    const group = groups.get(key) ?? { page, ratedDown: 0, closest: 0, notCovered: 0, items: [] };
    group.items.push(item);
    if (item.kind === 'rated-down') group.ratedDown++;
    else if (item.confidence === 'closest') group.closest++;
    else group.notCovered++;
    groups.set(key, group);
  }
  const newest = (group: ReportGroup) => group.items[0]?.at.getTime() ?? 0;
  return [...groups.values()].sort(
    (a, b) =>
      Number(a.page === null) - Number(b.page === null) || b.items.length - a.items.length || newest(b) - newest(a),
  );
}
