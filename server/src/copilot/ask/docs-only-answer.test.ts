import { describe, expect, it } from 'vitest';
import { composeDocsOnlyAnswer, questionTerms, type RetrievedSection, termCoverage } from './docs-only-answer.js';

const section = (overrides: Partial<RetrievedSection>): RetrievedSection => ({
  pageTitle: 'Firestore TTL',
  heading: 'Creating a policy',
  url: '/firestore-ttl#creating-a-policy',
  pageUrl: '/firestore-ttl',
  text: 'Create a TTL policy on the expireAt field with gcloud firestore fields ttls update.',
  score: 10,
  ...overrides,
});

const excerpt = (found: RetrievedSection) => found.text;

describe('composeDocsOnlyAnswer', () => {
  it('leads with the best section and quotes up to three, each with its link', () => {
    const results = [
      section({}),
      section({
        heading: 'Costs',
        url: '/firestore-ttl#costs',
        text: 'TTL deletes are billed like deletes; policy costs.',
      }),
      section({
        pageTitle: 'Common pitfalls',
        heading: 'TTL',
        url: '/common-pitfalls#ttl',
        pageUrl: '/common-pitfalls',
        text: 'A TTL policy field must be a timestamp, not a number.',
      }),
      section({ heading: 'Limits', url: '/firestore-ttl#limits', text: 'One TTL policy per collection group field.' }),
    ];
    const answer = composeDocsOnlyAnswer({ question: 'How do I create a TTL policy?', results, excerpt });
    expect(answer.covered).toBe(true);
    expect(answer.markdown).toMatch(/^The handbook covers this in \*\*Firestore TTL › Creating a policy\*\*/);
    expect(answer.markdown).toContain('(/firestore-ttl#creating-a-policy)');
    expect(answer.sources).toHaveLength(3);
    expect(answer.sources[0]).toEqual({
      title: 'Firestore TTL › Creating a policy',
      url: '/firestore-ttl#creating-a-policy',
    });
    expect(answer.markdown).toContain('> Create a TTL policy on the expireAt field');
  });

  it('quotes another page before a third section of the same page, keeping the ranking order', () => {
    const results = [
      section({}),
      section({ heading: 'Costs', url: '/firestore-ttl#costs', text: 'TTL policy deletes are billed like deletes.' }),
      section({ heading: 'Limits', url: '/firestore-ttl#limits', text: 'One TTL policy per collection group field.' }),
      section({
        pageTitle: 'Common pitfalls',
        heading: 'TTL',
        url: '/common-pitfalls#ttl',
        pageUrl: '/common-pitfalls',
        text: 'A TTL policy field must be a timestamp.',
      }),
    ];
    const answer = composeDocsOnlyAnswer({ question: 'How do I create a TTL policy?', results, excerpt });
    expect(answer.sources.map((source) => source.url)).toEqual([
      '/firestore-ttl#creating-a-policy',
      '/firestore-ttl#costs',
      '/common-pitfalls#ttl',
    ]);
  });

  it('says honestly when nothing matches, with the nearest pages', () => {
    const results = [section({ text: 'Deletion happens within 24 hours.' })];
    const answer = composeDocsOnlyAnswer({
      question: 'What is the office wifi password for guests?',
      results,
      excerpt,
    });
    expect(answer.covered).toBe(false);
    expect(answer.markdown).toContain('The handbook does not seem to cover this.');
    expect(answer.markdown).toContain('- [Firestore TTL](/firestore-ttl)');
    expect(answer.sources).toEqual([{ title: 'Firestore TTL', url: '/firestore-ttl' }]);
  });

  it('says so with no results at all', () => {
    const answer = composeDocsOnlyAnswer({ question: 'anything', results: [], excerpt });
    expect(answer.covered).toBe(false);
    expect(answer.sources).toEqual([]);
  });

  it('escapes angle brackets from quoted doc text', () => {
    const results = [section({ text: 'Create a TTL policy: <script>alert(1)</script>' })];
    const answer = composeDocsOnlyAnswer({ question: 'create TTL policy', results, excerpt });
    expect(answer.markdown).not.toContain('<script>');
    expect(answer.markdown).toContain('&lt;script&gt;');
  });
});

describe('questionTerms and termCoverage', () => {
  it('keeps the meaningful words', () => {
    expect(questionTerms('How do I register a GitLab runner?')).toEqual(['register', 'gitlab', 'runner']);
  });

  it('matches word forms by their first letters', () => {
    expect(termCoverage(['registering', 'runner'], 'Register the runner with a token')).toBe(1);
    expect(termCoverage(['kubernetes'], 'Register the runner')).toBe(0);
  });
});
