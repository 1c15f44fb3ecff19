import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocsSearchIndex } from './docs-index.js';
import { answeringPages, type DocsQuestion, docsQuestions } from './questions.js';

const siteDirectory = fileURLToPath(new URL('../../../../site/build', import.meta.url));
const index = loadDocsSearchIndex(siteDirectory);

/** 1-based rank of the first result from a page that answers it, or undefined when none is in the top ten. */
function rankOf(question: DocsQuestion): number | undefined {
  const pages = answeringPages(question);
  const rank = index.search(question.question, { limit: 10 }).findIndex((section) => pages.includes(section.pageUrl));
  return rank < 0 ? undefined : rank + 1;
}

describe('developer questions against the built docs', () => {
  const ranks = docsQuestions.map((question) => ({ question: question.question, rank: rankOf(question) }));

  it('names only pages that exist', () => {
    expect(docsQuestions.flatMap(answeringPages).filter((page) => !index.hasUrl(page))).toEqual([]);
    expect(docsQuestions.length).toBeGreaterThanOrEqual(35);
  });

  it('finds the answering page in the top 3 results for at least 90% of questions', () => {
    const found = ranks.filter(({ rank }) => rank !== undefined && rank <= 3).length;
    const recallAt3 = found / ranks.length;
    const meanReciprocalRank = ranks.reduce((total, { rank }) => total + (rank ? 1 / rank : 0), 0) / ranks.length;
    const misses = ranks.filter(({ rank }) => rank === undefined || rank > 3);
    console.log(
      `Retrieval over ${ranks.length} questions: recall@3 ${recallAt3.toFixed(3)}, MRR ${meanReciprocalRank.toFixed(3)}`,
    );
    for (const miss of misses) console.log(`  missed (rank ${miss.rank ?? '>10'}): ${miss.question}`);
    expect(recallAt3).toBeGreaterThanOrEqual(0.9);
  });
});
