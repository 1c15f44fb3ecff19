import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCopilotApi } from '../../../test-support/copilot-api.js';
import type { CopilotApi } from '../../../test-support/copilot-suite.js';
import { type TestDatabase, testBackends } from '../../../test-support/test-databases.js';
import { openStore, type Store } from '../../store/database.js';

/**
 * The database goes away between storing a turn's question and storing its answer (a restart, as the fault review
 * saw): the reader is told to try again, and nothing of the turn is kept, so a reload shows no unanswered question and
 * asking again adds no second branch. A trigger stands in for the restart: while `restarting_now` has a row, storing an
 * answer fails with PostgreSQL's admin_shutdown (57P01), as a fast shutdown ends a connection's statement.
 */
const backends = testBackends.filter((backend) => backend.name !== 'PGlite on disk' && !backend.skipped);

describe.each(backends)('a turn refused while the database restarts ($name)', (backend) => {
  let database: TestDatabase;
  let store: Store;
  let api: CopilotApi;
  beforeAll(async () => {
    database = await backend.create();
    store = await openStore(database.options);
    await store.db.execute(sql`create table restarting_now (since timestamptz)`);
    await store.db.execute(sql`
      create function refuse_while_restarting() returns trigger language plpgsql as $$
      begin
        if new.role = 'assistant' and exists (select 1 from restarting_now) then
          raise exception 'terminating connection due to administrator command' using errcode = 'admin_shutdown';
        end if;
        return new;
      end $$`);
    await store.db.execute(
      sql`create trigger restarting before insert on messages for each row execute function refuse_while_restarting()`,
    );
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
    await store.db.execute(sql`insert into restarting_now values (now())`);
    const refused = await api.call('POST', '/api/turns', {
      as: ada,
      body: { threadId, parentId: null, text: 'How do I roll back a release?' },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable:database');
    expect((await api.stored(threadId, ada)).messages).toEqual([]);

    await store.db.execute(sql`delete from restarting_now`);
    const chunks = await api.turn({ threadId, parentId: null, text: 'How do I roll back a release?' }, ada);
    expect(chunks.at(-1)?.type).toBe('finish');
    const { messages } = await api.stored(threadId, ada);
    expect(messages.map((message) => [message.role, message.parentId === null])).toEqual([
      ['user', true],
      ['assistant', false],
    ]);
  }, 30_000);
});
