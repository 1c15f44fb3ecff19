import { describe, expect, it } from 'vitest';
import type { DocSection } from './doc-page.js';
import { createDocsSearchIndex, excerpt } from './search-index.js';

function section(pageUrl: string, heading: string | undefined, text: string, pageTitle = 'Page'): DocSection {
  const url = heading ? `${pageUrl}#${heading.toLowerCase().replace(/\s+/g, '-')}` : pageUrl;
  return { id: url, pageTitle, pageUrl, heading, level: heading ? 2 : 1, url, text, breadcrumbs: [] };
}

const fixture = [
  section('/firestore-ttl', undefined, 'Firestore deletes expired documents for us.', 'Firestore TTL'),
  section('/firestore-ttl', 'Creating a policy', 'Run gcloud firestore fields ttls update expireAt.', 'Firestore TTL'),
  section('/cloud-tasks', 'Retries', 'Cloud Tasks retries failed tasks with backoff. Retrying twice is normal.'),
  section('/cloud-tasks', 'Queues', 'Queues have a rate. The queue rate is not enough on its own.'),
  section('/runner/', 'The instance', 'The runner VM is an e2-standard-4 machine with a 100 GB disk.'),
  section('/app-bridge', 'Toasts', 'Use shopify.toast.show in App Bridge v4 instead of the Toast component.'),
  section('/go-live', 'Rollback', 'Redeploy the previous tag; a rollback takes five minutes.'),
  section('/support', 'Severity', 'Response time for SEV1 is 15 minutes.'),
  section('/reviews', 'Bot comments', 'Reply to each bot comment before asking a human reviewer.'),
];

describe('createDocsSearchIndex', () => {
  const index = createDocsSearchIndex(fixture);

  it('ranks the section that mentions the query terms most specifically first', () => {
    expect(index.search('create a TTL policy')[0]?.url).toBe('/firestore-ttl#creating-a-policy');
  });

  it('matches inflected forms through stemming', () => {
    expect(index.search('retrying task')[0]?.url).toBe('/cloud-tasks#retries');
  });

  it('finds hyphenated machine types whole or in parts', () => {
    expect(index.search('e2-standard-4')[0]?.url).toBe('/runner/#the-instance');
    expect(index.search('standard machine')[0]?.url).toBe('/runner/#the-instance');
  });

  it('finds a word the docs write closed when the question splits it ("roll back" for rollback)', () => {
    expect(index.search('how do I roll back')[0]?.url).toBe('/go-live#rollback');
  });

  it('finds a near spelling that stemming keeps apart, below an exact match ("respond" for response)', () => {
    expect(index.search('how fast must we respond')[0]?.url).toBe('/support#severity');
    const exact = index.search('response time')[0]?.score ?? 0;
    const near = index.search('respond time')[0]?.score ?? 0;
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(exact);
  });

  it('takes only close near spellings, and one per word: install is not instance, contact is not contain', () => {
    const index = createDocsSearchIndex([
      section('/a', 'Setup', 'Install the tools, then contact the team.'),
      section('/b', 'Sizing', 'Each instance must contain enough memory.'),
    ]);
    expect(index.search('instance').map((found) => found.pageUrl)).toEqual(['/b']);
    expect(index.search('contain').map((found) => found.pageUrl)).toEqual(['/b']);
  });

  it('prefers a match in the heading over the same match in the body', () => {
    const results = index.search('queues');
    expect(results[0]?.url).toBe('/cloud-tasks#queues');
  });

  it('boosts sections of the page the reader is on', () => {
    const tied = createDocsSearchIndex([
      section('/a', 'Deploy', 'deploy steps'),
      section('/b', 'Deploy', 'deploy steps'),
    ]);
    expect(tied.search('deploy', { currentPage: '/b' })[0]?.pageUrl).toBe('/b');
    expect(tied.search('deploy', { currentPage: 'https://docs.acme.dev/a#deploy' })[0]?.pageUrl).toBe('/a');
  });

  it('returns nothing for a query of stop words or unknown words, and respects the limit', () => {
    expect(index.search('what is the')).toEqual([]);
    expect(index.search('kubernetes')).toEqual([]);
    expect(index.search('firestore tasks runner toast', { limit: 2 })).toHaveLength(2);
  });

  it('answers which links lead to a real page or section', () => {
    expect(index.hasUrl('/firestore-ttl')).toBe(true);
    expect(index.hasUrl('/firestore-ttl/')).toBe(true);
    expect(index.hasUrl('/firestore-ttl#creating-a-policy')).toBe(true);
    expect(index.hasUrl('/runner#the-instance')).toBe(true);
    expect(index.hasUrl('/firestore-ttl#made-up-anchor')).toBe(false);
    expect(index.hasUrl('/no-such-page')).toBe(false);
  });

  it('finds the section a link leads to, the intro for a bare page link', () => {
    expect(index.sectionAt('/firestore-ttl#creating-a-policy')?.heading).toBe(
      index.sections.find((section) => section.url === '/firestore-ttl#creating-a-policy')?.heading,
    );
    expect(index.sectionAt('/firestore-ttl/')?.url).toBe('/firestore-ttl');
    expect(index.sectionAt('/firestore-ttl#made-up-anchor')).toBeUndefined();
    expect(index.sectionAt('https://evil.example/firestore-ttl')).toBeUndefined();
  });

  it('rejectsLinksToOtherHostsThatShareAPath', () => {
    expect(index.hasUrl('https://evil.example/firestore-ttl')).toBe(false);
    expect(index.hasUrl('//evil.example/firestore-ttl')).toBe(false);
  });
});

describe('excerpt', () => {
  const text =
    'Queues are created with gcloud. Each queue has a rate limit. ' +
    'A 429 from Shopify makes the task back off and retry later. Logs go to Cloud Logging.';

  it('quotes the sentences that mention the query', () => {
    expect(excerpt({ text }, 'retry after 429', 80)).toBe(
      'A 429 from Shopify makes the task back off and retry later.',
    );
  });

  it('never exceeds the character budget', () => {
    expect(excerpt({ text }, 'queue rate', 40).length).toBeLessThanOrEqual(40);
    expect(excerpt({ text: 'x'.repeat(500) }, 'x', 50)).toHaveLength(50);
  });
});
