import { analyze } from '../../search/analyze.js';
import { judgeCoverage, type Retrieval } from '../../search/coverage.js';
import type { SearchEngine, SearchHit } from '../../search/engine.js';
import { pageKey, parseDocUrl } from '../../search/urls.js';

/**
 * Words that talk about the page rather than its subject ("what does it say about costs", "is there anything about
 * indexes", "summarize the costs section"): left out when the reader's own page is searched.
 */
const pageTalk = new Set(
  analyze(
    'say says said mention mentions mentioned cover covers covered talk talks tell tells explain explains ' +
      'summarize summarise summary anything something page section doc docs document article guide part here',
  ),
);

/**
 * The question asks about the page the reader is on: "this page", "what does it say about", "does this cover". Not
 * "it says permission denied": that is an error being quoted, about whatever the reader is doing.
 */
const pointsAtPage =
  /\b(this|current) (page|doc|document|article|guide)\b|\b(does|did|do) (it|this|they|the page)( \w+)? (say|mention|cover|talk|explain)\b|\bwhat (does|did) (it|this|the page) (say|mention)\b|\bon here\b/i;

/**
 * The reader's own page first, when the question is about it: it points at the page ("what does it say about costs?"),
 * or a section of the page is named by the question's subject ("is there anything about indexes?" on a page with an
 * Indexes section). The whole handbook ranked a cost guideline or another page's `index.ts` above the page the reader
 * asked about. Judged on the question's subject alone; undefined when the page does not hold it.
 */
export function readersPageFirst(
  engine: SearchEngine,
  question: string,
  page: string | undefined,
  found: Retrieval,
  limit: number,
): Retrieval | undefined {
  if (page === undefined) return undefined;
  const key = pageKey(parseDocUrl(page).path);
  const subject = engine.queryTerms(question).filter((term) => !pageTalk.has(term.term));
  const named = subject.filter((term) => !term.expansion && !term.generic && !term.optional);
  if (named.length === 0) return undefined;
  const onPage = engine
    .search(subject, { limit, pathPrefix: key })
    .filter((hit) => pageKey(parseDocUrl(hit.pageUrl).path) === key);
  const best = onPage[0];
  if (
    !best ||
    !(
      pointsAtPage.test(question) ||
      namesSection(
        best,
        named.map((term) => term.term),
      )
    )
  )
    return undefined;
  const coverage = judgeCoverage(subject, onPage, engine.meaningWeight);
  // The page never answers less surely than the whole handbook does.
  if (confidenceRank[coverage.confidence] < Math.max(1, confidenceRank[found.coverage.confidence])) return undefined;
  const elsewhere = found.hits.filter((hit) => pageKey(parseDocUrl(hit.pageUrl).path) !== key);
  return { ...found, hits: [...onPage, ...elsewhere].slice(0, limit), terms: subject, coverage };
}

const confidenceRank = { none: 0, closest: 1, answered: 2 } as const;

/** Whether the section's heading (or the page's title, for its intro) holds every one of the terms. */
function namesSection(hit: SearchHit, terms: readonly string[]): boolean {
  const heading = new Set(analyze(hit.heading ?? hit.pageTitle));
  return terms.every((term) => heading.has(term));
}
