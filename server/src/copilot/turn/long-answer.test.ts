import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { type FakeModelServer, startFakeModelServer } from '../../../test-support/fake-model-server.js';
import { inMemoryDataDirectory, openStore, type Store } from '../../store/database.js';

/**
 * A long answer written as one unbroken paragraph, as a model may write a long explanation: its links are judged as
 * it streams, without parsing the whole paragraph again at every word (which grew with the square of its length and
 * held the event loop for seconds: other readers, timers and SIGTERM waited).
 */
let store: Store;
let model: FakeModelServer;
let api: CopilotApi;
beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  model = await startFakeModelServer();
  api = await startCopilotApi(store, {
    modelUrl: model.url,
    environment: { COPILOT_MAX_OUTPUT_TOKENS: '16384', COPILOT_TIMEOUT_SECONDS: '120' },
  });
});
afterAll(async () => {
  await api?.close();
  await model?.close();
  await store?.close();
});

const ada = 'ada@acme.example';

it('streams a 3,000-word paragraph with links, judging each link before the text that ends it', async () => {
  const pieces = Array.from({ length: 3000 }, (_, index) =>
    index === 2500 ? '[nowhere](/nope) ' : index % 250 === 0 ? '[the rollback](/deployment#rollback) ' : 'word ',
  );
  model.behave({ reply: pieces });
  const threadId = await api.newThread(ada);
  const chunks = await api.turn({ threadId, parentId: null, text: 'Tell me everything about rolling back' }, ada);

  const verdicts = chunks.flatMap((chunk) => (chunk.type === 'data-link' ? [chunk.data] : []));
  expect(verdicts).toEqual(
    expect.arrayContaining([
      { url: '/deployment#rollback', href: '/deployment#rollback' },
      { url: '/nope', href: null },
    ]),
  );
  // The invented link's verdict comes before the text that closes it, so the widget never shows it as a link.
  const verdictAt = chunks.findIndex((chunk) => chunk.type === 'data-link' && chunk.id === '/nope');
  let text = '';
  const closedAt = chunks.findIndex((chunk) => {
    if (chunk.type === 'text-delta') text += chunk.delta;
    return text.includes('[nowhere](/nope)');
  });
  expect(verdictAt).toBeGreaterThan(-1);
  expect(verdictAt).toBeLessThan(closedAt);
  const answer = (await api.stored(threadId, ada)).messages[1];
  expect(answer?.status).toBe('complete');
}, 60_000);
