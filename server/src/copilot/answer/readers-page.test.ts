import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { createSearchEngine } from '../../search/engine.js';
import { retrieveForAnswer } from './retriever.js';

const ttl = (heading: string, text: string) => docSection('/firestore-ttl', 'Firestore TTL', heading, text);
const engine = createSearchEngine([
  ttl('Costs', 'Deletes are billed like any other delete; expect a spike the first day.'),
  ttl('Indexes', 'Exempt the expireAt field from single-field indexing to save writes.'),
  ttl('Creating a policy', 'Create the TTL policy on the expireAt field with gcloud.'),
  docSection(
    '/cost-guideline',
    'Cost guideline',
    'Monthly cost review',
    'Every month the tech lead reviews costs, cost alerts and the cost of each project; say what costs grew.',
  ),
  docSection('/functions', 'Functions', 'Global options', 'Set global options in functions/src/index.ts: index index.'),
  docSection(
    '/git-faq',
    'Git FAQ',
    'Permission denied on push',
    'A push that says permission denied needs your SSH key.',
  ),
  ttl('Service accounts', 'The TTL service account is denied permission to delete until it holds the role.'),
]);
const ask = (typed: string, page?: string) =>
  retrieveForAnswer(engine, { typed, imageText: '', page }, undefined, new AbortController().signal);

describe("a question about the reader's page", () => {
  it('is answered from that page when it points at it or names one of its sections', async () => {
    for (const question of ['what does it say about costs?', 'what does this page say about costs?']) {
      const retrieval = await ask(question, '/firestore-ttl');
      expect(retrieval.hits[0]?.url).toBe('/firestore-ttl#costs');
      expect(retrieval.coverage.confidence).toBe('answered');
    }
    expect((await ask('is there anything about indexes?', '/firestore-ttl/')).hits[0]?.url).toBe(
      '/firestore-ttl#indexes',
    );
  });

  it('is searched over the whole handbook as before elsewhere, or when the page does not hold its subject', async () => {
    expect((await ask('what does it say about costs?')).hits[0]?.pageUrl).toBe('/cost-guideline');
    expect((await ask('how are monthly costs reviewed?', '/firestore-ttl')).hits[0]?.pageUrl).toBe('/cost-guideline');
    expect((await ask('does it say anything about kafka?', '/firestore-ttl')).coverage.confidence).toBe('none');
    // An error quoted ("it says ...") is about what the reader does, not about the page they happen to be on.
    const quoted = await ask('git push fails and it says permission denied', '/firestore-ttl');
    expect(quoted.hits[0]?.pageUrl).toBe('/git-faq');
  });
});
