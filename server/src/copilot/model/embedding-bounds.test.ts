import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../../test-support/fake-model-server.js';
import type { ModelSettings } from '../../config.js';
import type { DocSection } from '../../search/doc-page.js';
import { createSemanticIndex } from '../../search/semantic-index.js';
import { createEmbeddingModel } from './provider.js';
import { embeddingResponseByteCap } from './provider-bounds.js';

const sections: DocSection[] = ['Rolling back', 'Creating a policy'].map((heading, index) => ({
  id: `page-${index}`,
  pageTitle: 'Page',
  pageUrl: `/page-${index}`,
  heading,
  parentHeading: undefined,
  level: 2,
  url: `/page-${index}#section`,
  text: `${heading}: what to do.`,
  blocks: [{ kind: 'text', markdown: heading }],
  breadcrumbs: [],
  keywords: [],
}));

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** An embedding index on the configured provider, as the server makes it; answers may take 3 s (1 s of silence). */
async function indexOnProvider(batchTimeoutMs?: number) {
  const settings: ModelSettings = {
    provider: 'openai-compatible',
    model: 'chat-model',
    apiKey: undefined,
    baseUrl: `${fake.url}/v1`,
    timeoutMs: 3000,
    vision: false,
    embeddingModel: 'embed-model',
    maxOutputTokens: 500,
  };
  const model = await createEmbeddingModel(settings);
  if (!model) throw new Error('no embedding model');
  const errors: string[] = [];
  const index = createSemanticIndex({
    model,
    currentSections: () => sections,
    onError: (message) => errors.push(message),
    ...(batchTimeoutMs === undefined ? {} : { batchTimeoutMs }),
  });
  return { index, errors };
}

/** Embedding the handbook ends, whatever the provider does: it may fail, and is tried again later, but never hangs. */
describe('bounds on the embedding provider', () => {
  it('gives up on a provider that never answers after the stall bound, and the docs stay unembedded', async () => {
    fake.behave({ hang: true });
    const { index, errors } = await indexOnProvider();
    const started = Date.now();
    await index.refresh();
    // Silence is cut at a third of the 3 s timeout (a timeout is not retried).
    expect(Date.now() - started).toBeLessThan(4000);
    expect(index.ready()).toBe(false);
    expect(errors).toEqual(['Could not embed the docs; answering on words alone until the next try']);
  });

  it('cuts a response past the byte cap and closes the connection, rather than holding it', async () => {
    fake.behave({ floodBytes: 4 * embeddingResponseByteCap });
    const { index, errors } = await indexOnProvider();
    await index.refresh();
    expect(index.ready()).toBe(false);
    expect(errors).toHaveLength(1);
    const sent = fake.received.map((request) => request.bytesSent ?? 0);
    expect(Math.max(...sent)).toBeLessThan(2 * embeddingResponseByteCap);
  });

  it('ends a batch that trickles a byte at a time at the batch deadline', async () => {
    fake.behave({ dripEveryMs: 100 });
    const { index, errors } = await indexOnProvider(1500);
    const started = Date.now();
    await index.refresh();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(index.ready()).toBe(false);
    expect(errors).toHaveLength(1);
  });

  it('embeds the docs from a provider that behaves', async () => {
    const { index, errors } = await indexOnProvider();
    await index.refresh();
    expect(index.ready()).toBe(true);
    expect(errors).toEqual([]);
  });
});
