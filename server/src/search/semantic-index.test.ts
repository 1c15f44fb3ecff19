import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import type { DocSection } from './doc-page.js';
import { createSearchEngine, type SearchHit } from './engine.js';
import { createSemanticIndex, reorderByMeaning } from './semantic-index.js';

const section = (id: string, pageTitle: string, heading: string, text: string): DocSection => ({
  id,
  pageTitle,
  pageUrl: `/${id}`,
  heading,
  parentHeading: undefined,
  level: 2,
  url: `/${id}#${heading.toLowerCase().replace(/\s+/g, '-')}`,
  text,
  blocks: [{ kind: 'text', markdown: text }],
  breadcrumbs: [],
  keywords: [],
});

const sections = [
  section('deployment', 'Deployment', 'Rolling back', 'Redeploy the previous tag from the pipeline and announce it.'),
  section('firestore-ttl', 'Firestore TTL', 'Creating a policy', 'Set a TTL field so documents expire on their own.'),
  section('support', 'Support procedure', 'Escalation', 'Page the on-call lead when a merchant is blocked.'),
];

/** Stands in for a real embedding model's sense of meaning: words of one concept share a direction. */
const concepts = [
  ['undo', 'revert', 'rolling', 'rollback', 'previous'],
  ['ttl', 'expire', 'expiry', 'delete'],
  ['on-call', 'page', 'escalation', 'blocked', 'urgent'],
];
const conceptVector = (text: string) =>
  concepts.map((words) => words.filter((word) => text.toLowerCase().includes(word)).length + 0.01);

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.behave({ embed: conceptVector });
});

const model = () => createOpenAICompatible({ name: 'test', baseURL: `${fake.url}/v1` }).embeddingModel('embed-test');

describe('createSemanticIndex against an OpenAI-compatible embeddings endpoint', () => {
  it('finds the section nearest in meaning when no word is shared', async () => {
    const errors: string[] = [];
    const index = createSemanticIndex({
      model: model(),
      currentSections: () => sections,
      onError: (m) => errors.push(m),
    });
    expect(await index.search('undo a bad release', { limit: 3 })).toEqual([]);
    await index.refresh();
    expect(index.ready()).toBe(true);
    const found = await index.search('how do I revert a broken release?', { limit: 3 });
    expect(found[0]?.id).toBe('deployment');
    expect(createSearchEngine(sections).search('how do I revert a broken release?')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('embeds only sections it has not seen when the docs change', async () => {
    let current: readonly DocSection[] = sections;
    const index = createSemanticIndex({ model: model(), currentSections: () => current, onError: () => {} });
    await index.refresh();
    const embeddedAtFirst = fake.received.filter((request) => request.protocol === 'embeddings').length;
    current = [...sections, section('faqs', 'FAQs', 'Urgent questions', 'Ask the on-call lead.')];
    await index.refresh();
    const second = fake.received.filter((request) => request.protocol === 'embeddings').slice(embeddedAtFirst);
    expect(second).toHaveLength(1);
    expect(second[0]?.body.input).toHaveLength(1);
  });

  it('falls back to words alone when the provider fails', async () => {
    const errors: string[] = [];
    const index = createSemanticIndex({
      model: model(),
      currentSections: () => sections,
      onError: (m) => errors.push(m),
    });
    fake.behave({ status: 500 });
    await index.refresh();
    expect(index.ready()).toBe(false);
    expect(await index.search('revert', { limit: 3 })).toEqual([]);
    expect(errors[0]).toMatch(/Could not embed the docs/);
  });
});

describe('reorderByMeaning', () => {
  const hit = (entry: DocSection, coverage: number): SearchHit => ({
    ...entry,
    score: 1,
    matchedTerms: new Set(['x']),
    matchedQueryTerms: new Set(['x']),
    coverage,
  });
  const [deployment, ttl, support] = sections as [DocSection, DocSection, DocSection];

  it('lifts a section both rankings like above one only one ranking likes', () => {
    const words = [hit(deployment, 0.5), hit(ttl, 0.4)];
    const meaning = [
      { ...ttl, score: 0.9 },
      { ...support, score: 0.8 },
    ];
    expect(reorderByMeaning(words, meaning).map((entry) => entry.id)).toEqual([
      'firestore-ttl',
      'deployment',
      'support',
    ]);
  });

  it('adds a section found by meaning alone without word evidence, so it cannot make a question covered', () => {
    const joined = reorderByMeaning([hit(deployment, 0.5)], [{ ...support, score: 0.9 }]);
    const bySupport = joined.find((entry) => entry.id === 'support');
    expect(bySupport?.coverage).toBe(0);
    expect(bySupport?.matchedTerms.size).toBe(0);
  });

  it('keeps the word ranking as it is without meaning', () => {
    const words = [hit(deployment, 0.5), hit(ttl, 0.4)];
    expect(reorderByMeaning(words, [])).toEqual(words);
  });
});
