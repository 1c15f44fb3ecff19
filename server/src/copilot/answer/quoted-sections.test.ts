import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { analyze } from '../../search/analyze.js';
import type { Retrieval } from '../../search/coverage.js';
import type { DocSection } from '../../search/doc-page.js';
import { createSearchEngine } from '../../search/engine.js';
import { coverageShare } from '../../search/query.js';
import { composeDocsOnlyAnswer } from './docs-only-answer.js';

const onDemand = docSection('/cost', 'Cost Optimization', 'On-demand or slots', [
  { kind: 'text', markdown: 'BigQuery bills every project on demand unless a slot reservation is bought.' },
  { kind: 'text', markdown: 'The cost of storage per TiB is reviewed once a year by the platform team.' },
]);
const costImpact = docSection('/bigquery', 'BigQuery partitioning', 'Cost impact', [
  { kind: 'text', markdown: 'On-demand BigQuery queries cost $6.25 per TiB processed.' },
]);
const releaseWindow = docSection('/go-live', 'Go-Live Procedure', 'The release window', [
  { kind: 'text', markdown: 'Production releases go out in a fixed window.' },
  {
    kind: 'table',
    header: ['Day', 'Release to production'],
    rows: [
      ['Monday', 'No'],
      ['Tuesday to Thursday', 'Yes, job started before 15:00'],
      ['Friday', 'No, except a fix agreed by the tech lead'],
    ],
  },
  { kind: 'text', markdown: 'A release outside the window needs the tech lead.' },
]);
const engine = createSearchEngine([onDemand, costImpact, releaseWindow]);

/** The ranked sections as retrieval would hand them over, in the order given: composition must not reorder them. */
function answerFrom(question: string, ranked: DocSection[]) {
  const asked = new Set(analyze(question));
  const terms = engine.queryTerms(question);
  const hits = ranked.map((section, position) => {
    const matched = new Set(analyze(section.text).filter((term) => asked.has(term)));
    const coverage = coverageShare(terms, matched, () => 1);
    return { ...section, score: 10 - position, matchedTerms: matched, matchedQueryTerms: matched, coverage };
  });
  const retrieval: Retrieval = {
    question,
    asked: question,
    hits,
    terms,
    coverage: { confidence: 'answered', covered: true, best: 0.6, together: 0.6, foreignNames: [] },
  };
  return composeDocsOnlyAnswer({ retrieval, termWeight: () => 1, meaningWeight: () => 1 });
}

describe('which sections a docs-only answer quotes', () => {
  it('quotes the next section when one of its sentences answers what the best one holds only scattered', () => {
    const reply = answerFrom('what does BigQuery on-demand cost per TiB?', [onDemand, costImpact]);
    expect(reply.sources.map((source) => source.url)).toEqual(['/cost#on-demand-or-slots', '/bigquery#cost-impact']);
    expect(reply.markdown).toContain('$6.25 per TiB');
    expect(reply.markdown.indexOf('BigQuery bills every project')).toBeLessThan(reply.markdown.indexOf('$6.25'));
  });

  it('quotes one section alone when the next one holds nothing as good', () => {
    const reply = answerFrom('what does BigQuery on-demand cost per TiB?', [costImpact, releaseWindow]);
    expect(reply.sources.map((source) => source.url)).toEqual(['/bigquery#cost-impact']);
  });

  it('quotes no second section when the best one matched by its headings alone (no part of it to compare with)', () => {
    // None of the question's words stands in either section's text: nothing makes the next one worth quoting.
    const reply = answerFrom('how do we rotate the zanzibar keys each quarter', [releaseWindow, costImpact]);
    expect(reply.sources.map((source) => source.url)).toEqual(['/go-live#the-release-window']);
  });

  it('answers a question that only names a section with the section as a whole, its table rows included', () => {
    const reply = answerFrom('release window', [releaseWindow]);
    expect(reply.markdown).toContain('Production releases go out in a fixed window.');
    expect(reply.markdown).toContain('| Tuesday to Thursday | Yes, job started before 15:00 |');
    expect(reply.markdown).toContain('| Monday | No |');
  });
});
