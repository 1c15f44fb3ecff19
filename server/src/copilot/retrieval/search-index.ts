import type { DocSection } from './doc-page.js';
import { joinedNeighbours, tokenize } from './tokenize.js';
import { isRootRelative, pageKey, parseDocUrl } from './urls.js';

export { excerpt } from './excerpt.js';

export type ScoredSection = DocSection & { score: number };

export type SearchOptions = { limit?: number; currentPage?: string };

export type DocsSearchIndex = {
  search(query: string, options?: SearchOptions): ScoredSection[];
  sections: readonly DocSection[];
  /** Whether a link (path, optional #anchor, either trailing-slash form) leads to a real page or section. */
  hasUrl(url: string): boolean;
  /** The section a link leads to (the page's intro for a link without an anchor). */
  sectionAt(url: string): DocSection | undefined;
};

/** BM25F: each field's term frequency is length-normalised on its own, weighted, then saturated once. */
const k1 = 1.2;
const fields = [
  { name: 'pageTitle', weight: 3, b: 0.5, read: (section: DocSection) => section.pageTitle },
  { name: 'heading', weight: 3, b: 0.5, read: (section: DocSection) => section.heading ?? '' },
  { name: 'breadcrumbs', weight: 0.5, b: 0.5, read: (section: DocSection) => section.breadcrumbs.join(' ') },
  { name: 'body', weight: 1, b: 0.75, read: (section: DocSection) => section.text },
] as const;
const currentPageBoost = 1.5;
const variantWeight = 0.5;
const defaultLimit = 8;

type FieldTerms = { frequencies: Map<string, number>; length: number };

function countTerms(text: string): FieldTerms {
  const terms = tokenize(text);
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { frequencies, length: terms.length };
}

/** A ranked full-text index over doc sections, built once in memory. */
export function createDocsSearchIndex(sections: readonly DocSection[]): DocsSearchIndex {
  const counted = sections.map((section) => fields.map((field) => countTerms(field.read(section))));
  const averageLengths = fields.map(
    (_, fieldIndex) =>
      counted.reduce((total, sectionFields) => total + (sectionFields[fieldIndex]?.length ?? 0), 0) /
        Math.max(1, sections.length) || 1,
  );
  const documentFrequency = new Map<string, number>();
  for (const sectionFields of counted) {
    const terms = new Set(sectionFields.flatMap((field) => [...field.frequencies.keys()]));
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const inverseDocumentFrequency = (term: string) => {
    const frequency = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (sections.length - frequency + 0.5) / (frequency + 0.5));
  };

  const weightedFrequency = (sectionFields: FieldTerms[], term: string) =>
    fields.reduce((total, field, fieldIndex) => {
      const terms = sectionFields[fieldIndex];
      const frequency = terms?.frequencies.get(term) ?? 0;
      if (frequency === 0 || !terms) return total;
      const lengthRatio = terms.length / (averageLengths[fieldIndex] ?? 1);
      return total + (field.weight * frequency) / (1 - field.b + field.b * lengthRatio);
    }, 0);

  const sectionKey = (url: string) => {
    const { path, anchor } = parseDocUrl(url);
    return `${pageKey(path)}#${anchor ?? ''}`;
  };
  const sectionsByUrl = new Map(sections.map((section) => [sectionKey(section.url), section]));
  const pages = new Map<string, Set<string>>();
  for (const section of sections) {
    const key = pageKey(section.pageUrl);
    const anchors = pages.get(key) ?? new Set<string>();
    const { anchor } = parseDocUrl(section.url);
    if (anchor) anchors.add(anchor);
    pages.set(key, anchors);
  }

  const vocabulary = [...documentFrequency.keys()];
  /**
   * The query as groups of alternative terms with their weights, one group a query word: the word's stem, or at half
   * weight the docs' near spelling of it (Porter leaves `respond` and `respons` apart); plus words the query splits
   * that the docs write as one (`roll back`, `rollback`). A section scores each group by its best alternative.
   */
  const termGroups = (query: string): Array<Array<[term: string, weight: number]>> => {
    const groups = new Map<string, Array<[string, number]>>();
    for (const term of tokenize(query)) {
      if (groups.has(term)) continue;
      const group: Array<[string, number]> = documentFrequency.has(term) ? [[term, 1]] : [];
      if (term.length >= 6 && /^\p{L}+$/u.test(term)) {
        const prefix = term.slice(0, term.length - 1);
        for (const variant of vocabulary) {
          if (variant !== term && variant.startsWith(prefix) && variant.length <= term.length + 1) {
            group.push([variant, variantWeight]);
          }
        }
      }
      if (group.length > 0) groups.set(term, group);
    }
    for (const joined of joinedNeighbours(query)) {
      if (documentFrequency.has(joined) && !groups.has(joined)) groups.set(joined, [[joined, 1]]);
    }
    return [...groups.values()];
  };

  return {
    sections,
    search(query, options = {}) {
      const groups = termGroups(query);
      if (groups.length === 0) return [];
      const currentPage = options.currentPage ? pageKey(parseDocUrl(options.currentPage).path) : undefined;
      const scored: ScoredSection[] = [];
      sections.forEach((section, index) => {
        const sectionFields = counted[index] ?? [];
        let score = 0;
        for (const group of groups) {
          let best = 0;
          for (const [term, weight] of group) {
            const frequency = weightedFrequency(sectionFields, term);
            if (frequency > 0) {
              best = Math.max(
                best,
                (weight * inverseDocumentFrequency(term) * frequency * (k1 + 1)) / (frequency + k1),
              );
            }
          }
          score += best;
        }
        if (score === 0) return;
        if (currentPage !== undefined && pageKey(section.pageUrl) === currentPage) score *= currentPageBoost;
        scored.push({ ...section, score });
      });
      return scored.sort((first, second) => second.score - first.score).slice(0, options.limit ?? defaultLimit);
    },
    hasUrl(url) {
      if (!isRootRelative(url)) return false;
      const { path, anchor } = parseDocUrl(url);
      const anchors = pages.get(pageKey(path));
      return anchors !== undefined && (anchor === undefined || anchors.has(anchor));
    },
    sectionAt(url) {
      return isRootRelative(url) ? sectionsByUrl.get(sectionKey(url)) : undefined;
    },
  };
}
