import { afterAll, beforeAll, expect, it } from 'vitest';
import { readChunks, startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { failingMessageWrites } from '../../../test-support/failing-writes.js';
import { type FakeModelServer, startFakeModelServer } from '../../../test-support/fake-model-server.js';
import { inMemoryDataDirectory, openStore, type Store } from '../../store/database.js';

/**
 * The disk fills while an answer streams, and space comes back a second after its end: the end is written again once
 * it can be, as through a database outage, so the stored answer is the one the reader read (it was left `running` with
 * its first words, and the reader told its chats could not be saved). A trigger stands in for the full disk: while
 * switched on, every update of a message fails with PostgreSQL's disk_full (53100), as PGlite's did.
 */
let store: Store;
let model: FakeModelServer;
let api: CopilotApi;
let diskFull: Awaited<ReturnType<typeof failingMessageWrites>>;
beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  diskFull = await failingMessageWrites(store, {
    name: 'disk_full',
    event: 'update',
    errcode: 'disk_full',
    message: 'could not extend file: No space left on device',
  });
  model = await startFakeModelServer();
  api = await startCopilotApi(store, { modelUrl: model.url });
});
afterAll(async () => {
  await api?.close();
  await model?.close();
  await store?.close();
});

const ada = 'ada@acme.example';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('writes the end of an answer again once space returns after a full disk', async () => {
  const words = Array.from({ length: 30 }, (_, index) => `word${index} `);
  model.behave({ reply: words, chunkDelayMs: 50 });
  const threadId = await api.newThread(ada);
  const response = await api.call('POST', '/api/turns', {
    as: ada,
    body: { threadId, parentId: null, text: 'How do I roll back a release?' },
  });
  expect(response.status).toBe(200);
  const read = readChunks(response);
  // The answer streams for about 1.5 s: the disk fills half a second in, and has room again a second after its end.
  await sleep(500);
  await diskFull.start();
  await sleep(2500);
  await diskFull.stop();
  const chunks = await read;

  expect(chunks.find((chunk) => chunk.type === 'data-failure')).toBeUndefined();
  expect(chunks.at(-1)?.type).toBe('finish');
  const answer = (await api.stored(threadId, ada)).messages[1];
  expect(answer).toMatchObject({ role: 'assistant', status: 'complete' });
  expect(answer?.content).toEqual([{ type: 'text', text: words.join('') }]);
}, 60_000);
