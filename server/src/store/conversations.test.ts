import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectApiError } from '../../test-support/api-errors.js';
import { answer, question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import {
  archiveThread,
  createThread,
  deleteThread,
  getThreadWithMessages,
  listThreads,
  renameThread,
  threadListQuery,
  unarchiveThread,
  updateThread,
} from './conversations.js';
import { appendMessage, setFeedback } from './messages.js';
import { feedback, messages, threads } from './schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

/** A statement with its parameters written in, as EXPLAIN takes it (the test's own values: no quoting is needed). */
const inlined = ({ sql: text, params }: { sql: string; params: unknown[] }) =>
  text.replace(/\$(\d+)/g, (_, position: string) => `'${String(params[Number(position) - 1])}'`);

/** Times set explicitly, seconds apart: two statements in a row may read the same database clock. */
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`threads on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(threads);
    });

    it('creates an empty "New chat" thread that only its reader sees', async () => {
      const thread = await createThread(store.db, { reader: ada });

      expect(thread).toMatchObject({ title: 'New chat', status: 'regular' });
      expect(thread).not.toHaveProperty('reader');
      expect(await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id })).toEqual({
        thread,
        messages: [],
        headId: null,
      });
      expect((await listThreads(store.db, { reader: ada })).threads).toEqual([thread]);
      expect((await listThreads(store.db, { reader: eve })).threads).toEqual([]);
    });

    it('compares readers exactly: a subject differing only in case is another account', async () => {
      const thread = await createThread(store.db, { reader: 'Ada@ACME.example', title: 'Deploys' });

      expect((await listThreads(store.db, { reader: ada })).threads).toEqual([]);
      expect((await listThreads(store.db, { reader: 'Ada@ACME.example' })).threads).toEqual([thread]);
    });

    it('lists threads most recently active first, filtered by status', async () => {
      const datedThread = async (title: string, at: Date) => {
        const { id } = await createThread(store.db, { reader: ada, title });
        await store.db.update(threads).set({ createdAt: at, updatedAt: at }).where(eq(threads.id, id));
        const dated = await getThreadWithMessages(store.db, { reader: ada, threadId: id });
        if (!dated) throw new Error(`thread ${id} not found`);
        return dated.thread;
      };
      const older = await datedThread('Older', secondsAgo(120));
      const newer = await datedThread('Newer', secondsAgo(60));
      const archivedNewer = await archiveThread(store.db, { reader: ada, threadId: newer.id });

      expect((await listThreads(store.db, { reader: ada })).threads).toEqual([archivedNewer, older]);
      expect((await listThreads(store.db, { reader: ada, status: 'regular' })).threads).toEqual([older]);
      expect((await listThreads(store.db, { reader: ada, status: 'archived' })).threads).toEqual([archivedNewer]);

      await appendMessage(store.db, { reader: ada, threadId: older.id, message: question('Still there?') });

      expect((await listThreads(store.db, { reader: ada })).threads.map((thread) => thread.title)).toEqual([
        'Older',
        'Newer',
      ]);
    });

    it('pages the list by position: each thread once and in order, to the microsecond, whatever moves between pages', async () => {
      // Three threads in the same microsecond and two a microsecond either side: a Date (milliseconds) cannot tell
      // them apart, the cursor must.
      const activeAt = async (title: string, at: string) => {
        const { id } = await createThread(store.db, { reader: ada, title });
        await store.db
          .update(threads)
          .set({ updatedAt: sql`${at}::timestamptz` })
          .where(eq(threads.id, id));
        return id;
      };
      for (const [title, at] of [
        ['a', '2026-01-01T10:00:00.123455Z'],
        ['b', '2026-01-01T10:00:00.123456Z'],
        ['c', '2026-01-01T10:00:00.123456Z'],
        ['d', '2026-01-01T10:00:00.123456Z'],
        ['e', '2026-01-01T10:00:00.123457Z'],
        ['f', '2026-01-01T09:00:00Z'],
        ['g', '2026-01-02T09:00:00Z'],
      ] as const) {
        await activeAt(title, at);
      }
      await createThread(store.db, { reader: eve, title: 'not ada' });
      const whole = (await listThreads(store.db, { reader: ada, limit: 200 })).threads.map((thread) => thread.id);
      expect(whole).toHaveLength(7);

      for (const limit of [1, 2, 3, 7]) {
        const seen: string[] = [];
        let page = await listThreads(store.db, { reader: ada, limit });
        seen.push(...page.threads.map((thread) => thread.id));
        while (page.next) {
          expect(page.threads).toHaveLength(limit);
          page = await listThreads(store.db, { reader: ada, limit, after: page.next });
          seen.push(...page.threads.map((thread) => thread.id));
        }
        expect(seen).toEqual(whole);
      }

      // Between two pages, a thread of the second page gets a new message (it moves to the top) and the last thread
      // of the first page is deleted: the second page still starts where the first ended, and repeats nothing.
      const first = await listThreads(store.db, { reader: ada, limit: 3 });
      const firstIds = first.threads.map((thread) => thread.id);
      const moved = whole[4] as string;
      await appendMessage(store.db, { reader: ada, threadId: moved, message: question('Back to this one') });
      await deleteThread(store.db, { reader: ada, threadId: firstIds[2] as string });
      if (!first.next) throw new Error('a first page of 3 out of 7 has a next page');
      const second = await listThreads(store.db, { reader: ada, limit: 3, after: first.next });
      expect(second.threads.map((thread) => thread.id)).toEqual(whole.slice(3).filter((id) => id !== moved));
      expect(second.next).toBeNull();
    });

    it("reads a page of the list from its cursor in the index's order, never sorting all the reader's threads", async () => {
      await store.db.insert(threads).values(
        Array.from({ length: 3000 }, (_, index) => ({
          id: `thread-${index}`,
          reader: ada,
          updatedAt: secondsAgo(index % 50),
        })),
      );
      await store.db.execute(sql`analyze threads`);
      const first = await listThreads(store.db, { reader: ada, limit: 20 });
      const cursor = first.next;
      expect(cursor).not.toBeNull();
      // The list's own statement, as EXPLAIN shows its plan: an index scan that stops after a page, no sort.
      const page = threadListQuery(store.db, { reader: ada, limit: 20, after: cursor ?? undefined }).toSQL();
      const plan = JSON.stringify(await store.db.execute(sql`explain ${sql.raw(inlined(page))}`));
      expect(plan).toContain('threads_reader_updated_at_id_index');
      expect(plan).not.toMatch(/Sort/);
    });

    it('renames a thread', async () => {
      const thread = await createThread(store.db, { reader: ada });

      const renamed = await renameThread(store.db, { reader: ada, threadId: thread.id, title: 'Deploys' });

      expect(renamed).toEqual({ ...thread, title: 'Deploys' });
      expect((await listThreads(store.db, { reader: ada })).threads).toEqual([renamed]);
    });

    it('archives only regular threads and unarchives only archived ones', async () => {
      const thread = await createThread(store.db, { reader: ada });
      const target = { reader: ada, threadId: thread.id };

      await expectApiError(unarchiveThread(store.db, target), 'conflict:thread_status');
      expect((await archiveThread(store.db, target)).status).toBe('archived');
      await expectApiError(archiveThread(store.db, target), 'conflict:thread_status');
      expect((await unarchiveThread(store.db, target)).status).toBe('regular');
    });

    it('renames and archives in one step, or does neither when the move is not allowed', async () => {
      const thread = await createThread(store.db, { reader: ada });
      const target = { reader: ada, threadId: thread.id };

      expect(await updateThread(store.db, { ...target, title: 'Old', status: 'archived' })).toMatchObject({
        title: 'Old',
        status: 'archived',
      });
      await expectApiError(
        updateThread(store.db, { ...target, title: 'Lost', status: 'archived' }),
        'conflict:thread_status',
      );
      expect(await updateThread(store.db, target)).toMatchObject({ title: 'Old', status: 'archived' });
    });

    it('deletes a thread with its messages and their feedback', async () => {
      const thread = await createThread(store.db, { reader: ada });
      const kept = await createThread(store.db, { reader: ada });
      const asked = await appendMessage(store.db, { reader: ada, threadId: thread.id, message: question('Hi') });
      const answered = await appendMessage(store.db, {
        reader: ada,
        threadId: thread.id,
        message: answer('Yo', asked.id),
      });
      await setFeedback(store.db, { reader: ada, messageId: answered.id, rating: 'positive' });
      await appendMessage(store.db, { reader: ada, threadId: kept.id, message: question('Kept') });

      await deleteThread(store.db, { reader: ada, threadId: thread.id });

      expect(await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id })).toBeUndefined();
      expect(await store.db.select({ id: messages.id }).from(messages)).toHaveLength(1);
      expect(await store.db.select().from(feedback)).toEqual([]);
      await expectApiError(deleteThread(store.db, { reader: ada, threadId: thread.id }), 'not_found:thread');
    });

    it("answers every function on another reader's thread exactly as for one that does not exist", async () => {
      const thread = await createThread(store.db, { reader: ada, title: 'Private' });
      const asked = await appendMessage(store.db, {
        reader: ada,
        threadId: thread.id,
        message: question('Secret'),
      });
      await appendMessage(store.db, { reader: ada, threadId: thread.id, message: answer('Yes', asked.id) });
      const before = await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id });

      for (const threadId of [thread.id, 'never-existed']) {
        const target = { reader: eve, threadId };
        expect(await getThreadWithMessages(store.db, target)).toBeUndefined();
        await expectApiError(renameThread(store.db, { ...target, title: 'Mine now' }), 'not_found:thread');
        await expectApiError(archiveThread(store.db, target), 'not_found:thread');
        await expectApiError(unarchiveThread(store.db, target), 'not_found:thread');
        await expectApiError(updateThread(store.db, { ...target, title: 'Mine now' }), 'not_found:thread');
        await expectApiError(updateThread(store.db, target), 'not_found:thread');
        await expectApiError(deleteThread(store.db, target), 'not_found:thread');
      }

      expect((await listThreads(store.db, { reader: eve })).threads).toEqual([]);
      expect(await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id })).toEqual(before);
    });

    if (backend.persistent) {
      it('keeps threads, branches and feedback after the store is closed and opened again', async () => {
        const thread = await createThread(store.db, { reader: ada });
        const asked = await appendMessage(store.db, { reader: ada, threadId: thread.id, message: question('Hi') });
        await appendMessage(store.db, { reader: ada, threadId: thread.id, message: answer('One', asked.id) });
        const second = await appendMessage(store.db, {
          reader: ada,
          threadId: thread.id,
          message: answer('Two', asked.id),
        });
        await setFeedback(store.db, { reader: ada, messageId: second.id, rating: 'negative', comment: 'Wrong' });
        const before = await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id });

        await store.reopen();

        expect(await getThreadWithMessages(store.db, { reader: ada, threadId: thread.id })).toEqual(before);
      });
    }
  });
}
