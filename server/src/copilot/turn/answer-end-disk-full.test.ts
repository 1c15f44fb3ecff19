import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readChunks, startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { type FakeModelServer, startFakeModelServer } from '../../../test-support/fake-model-server.js';
import { inMemoryDataDirectory, openStore, type Store } from '../../store/database.js';

/**
 * The disk fills while an answer streams, and space comes back a second after its end: the end is written again once
 * it can be, as through a database outage, so the stored answer is the one the reader read (it was left `running` with
 * its first words, and the reader told its chats could not be saved). A trigger stands in for the full disk: while
 * `disk_full_now` has a row, every update of a message fails with PostgreSQL's disk_full (53100), as PGlite's did.
 */
let store: Store;
let model: FakeModelServer;
let api: CopilotApi;
beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  await store.db.execute(sql`create table disk_full_now (since timestamptz)`);
  await store.db.execute(sql`
    create function refuse_for_lack_of_space() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from disk_full_now) then
        raise exception 'could not extend file: No space left on device' using errcode = 'disk_full';
      end if;
      return new;
    end $$`);
  await store.db.execute(
    sql`create trigger disk_full before update on messages for each row execute function refuse_for_lack_of_space()`,
  );
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
  await store.db.execute(sql`insert into disk_full_now values (now())`);
  await sleep(2500);
  await store.db.execute(sql`delete from disk_full_now`);
  const chunks = await read;

  expect(chunks.find((chunk) => chunk.type === 'data-failure')).toBeUndefined();
  expect(chunks.at(-1)?.type).toBe('finish');
  const answer = (await api.stored(threadId, ada)).messages[1];
  expect(answer).toMatchObject({ role: 'assistant', status: 'complete' });
  expect(answer?.content).toEqual([{ type: 'text', text: words.join('') }]);
}, 60_000);
