import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { failingMessageWrites } from '../../../test-support/failing-writes.js';
import { type TestDatabase, testBackends } from '../../../test-support/test-databases.js';
import { openStore, type Store } from '../../store/database.js';

/**
 * The database goes away between storing a turn's question and storing its answer (a restart, as the fault review
 * saw): the reader is told to try again, and nothing of the turn is kept, so a reload shows no unanswered question and
 * asking again adds no second branch. A trigger stands in for the restart: while switched on, storing an
 * answer fails with PostgreSQL's admin_shutdown (57P01), as a fast shutdown ends a connection's statement.
 */
const backends = testBackends.filter((backend) => backend.name !== 'PGlite on disk' && !backend.skipped);

describe.each(backends)('a turn refused while the database restarts ($name)', (backend) => {
  let database: TestDatabase;
  let store: Store;
  let api: CopilotApi;
  let restart: Awaited<ReturnType<typeof failingMessageWrites>>;
  beforeAll(async () => {
    database = await backend.create();
    store = await openStore(database.options);
    restart = await failingMessageWrites(store, {
      name: 'restarting',
      event: 'insert',
      errcode: 'admin_shutdown',
      message: 'terminating connection due to administrator command',
      when: "new.role = 'assistant'",
    });
    api = await startCopilotApi(store);
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
    await database?.drop();
  });

  const ada = 'ada@acme.example';

  it('keeps neither its question nor its answer, and the question asked again is the only one', async () => {
    const threadId = await api.newThread(ada);
    await restart.start();
    const refused = await api.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'How do I roll back a release?' },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable:database');
    expect((await api.stored(threadId, ada)).messages).toEqual([]);

    await restart.stop();
    const chunks = await api.turn({ threadId, parentId: null, text: 'How do I roll back a release?' }, ada);
    expect(chunks.at(-1)?.type).toBe('finish');
    const { messages } = await api.stored(threadId, ada);
    expect(messages.map((message) => [message.role, message.parentId === null])).toEqual([
      ['user', true],
      ['assistant', false],
    ]);
  }, 30_000);
});
