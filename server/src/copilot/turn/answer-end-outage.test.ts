import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { readChunks, startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { failingMessageWrites } from '../../../test-support/failing-writes.js';
import { rowsOf } from '../../insights/query-rows.js';
import { inMemoryDataDirectory, openStore, type Store } from '../../store/database.js';

/**
 * The database goes away at an answer's end and stays away past the end's retries (about 35 s): the reader is told
 * the handbook is unavailable for a moment (unavailable:database), not that their chats are broken (internal:threads).
 * A trigger stands in for the outage: every write of an answer's end fails with PostgreSQL's admin_shutdown (57P01),
 * and counts itself in a sequence (nextval is not rolled back with the failed write), so the test knows when the end's
 * retries have begun and moves the clock past their deadline instead of waiting for it.
 */
let store: Store;
let api: CopilotApi;
let outage: Awaited<ReturnType<typeof failingMessageWrites>>;
beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  await store.db.execute(sql`create sequence answer_end_writes`);
  outage = await failingMessageWrites(store, {
    name: 'database_away',
    event: 'update',
    errcode: 'admin_shutdown',
    message: 'terminating connection due to administrator command',
    when: "new.status <> 'running' and nextval('answer_end_writes') > 0",
  });
  api = await startCopilotApi(store);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await api?.close();
  await store?.close();
});

const ada = 'ada@acme.example';

async function endWritesTried() {
  const [sequence] = await rowsOf<{ is_called: boolean }>(store.db, sql`select is_called from answer_end_writes`);
  return sequence?.is_called === true;
}

it('tells the reader the database is unavailable when it stays away past the retries of the answer end', async () => {
  const threadId = await api.newThread(ada);
  await outage.start();
  const response = await api.call('POST', '/api/turns', {
    as: ada,
    body: { threadId, parentId: null, text: 'How do I roll back a release?' },
  });
  expect(response.status).toBe(200);
  const read = readChunks(response);
  await expect.poll(endWritesTried).toBe(true);
  // The outage lasts: from now on every clock reading is a minute later, past the end's retries.
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_000);
  const chunks = await read;
  vi.restoreAllMocks();
  await outage.stop();

  expect(chunks.find((chunk) => chunk.type === 'data-failure')).toMatchObject({
    data: { code: 'unavailable:database' },
  });
  expect(chunks.at(-1)).toMatchObject({ type: 'error' });
}, 30_000);
