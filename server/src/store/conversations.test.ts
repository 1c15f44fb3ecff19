import { eq } from 'drizzle-orm';
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
  unarchiveThread,
  updateThread,
} from './conversations.js';
import { appendMessage, setFeedback } from './messages.js';
import { feedback, messages, threads } from './schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

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
      });
      expect(await listThreads(store.db, { reader: ada })).toEqual([thread]);
      expect(await listThreads(store.db, { reader: eve })).toEqual([]);
    });

    it('compares readers exactly: a subject differing only in case is another account', async () => {
      const thread = await createThread(store.db, { reader: 'Ada@ACME.example', title: 'Deploys' });

      expect(await listThreads(store.db, { reader: ada })).toEqual([]);
      expect(await listThreads(store.db, { reader: 'Ada@ACME.example' })).toEqual([thread]);
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

      expect(await listThreads(store.db, { reader: ada })).toEqual([archivedNewer, older]);
      expect(await listThreads(store.db, { reader: ada, status: 'regular' })).toEqual([older]);
      expect(await listThreads(store.db, { reader: ada, status: 'archived' })).toEqual([archivedNewer]);

      await appendMessage(store.db, { reader: ada, threadId: older.id, message: question('Still there?') });

      expect((await listThreads(store.db, { reader: ada })).map((thread) => thread.title)).toEqual(['Older', 'Newer']);
    });

    it('renames a thread', async () => {
      const thread = await createThread(store.db, { reader: ada });

      const renamed = await renameThread(store.db, { reader: ada, threadId: thread.id, title: 'Deploys' });

      expect(renamed).toEqual({ ...thread, title: 'Deploys' });
      expect(await listThreads(store.db, { reader: ada })).toEqual([renamed]);
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

      expect(await listThreads(store.db, { reader: eve })).toEqual([]);
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
