import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import {
  appendMessage,
  archiveThread,
  ConversationError,
  clearFeedback,
  createThread,
  deleteThread,
  getThreadWithMessages,
  listThreads,
  type NewMessage,
  renameThread,
  setFeedback,
  titleFromContent,
  unarchiveThread,
  updateThread,
} from './conversations.js';
import { feedback, messages, threads } from './schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

const question = (text: string, parentId: string | null = null): NewMessage => ({
  parentId,
  role: 'user',
  content: [{ type: 'text', text }],
});
const answer = (text: string, parentId: string): NewMessage => ({
  parentId,
  role: 'assistant',
  content: [{ type: 'text', text }],
  sources: [{ title: 'Deploying', url: '/docs/deploying' }],
});

/** PGlite's clock counts whole milliseconds; orderings by time need the clock to have moved on. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

/** Rejects with the ConversationError of this code, and nothing else. */
async function expectCode(promise: Promise<unknown>, code: ConversationError['code']) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConversationError);
  expect((error as ConversationError).code).toBe(code);
}

describe('titleFromContent', () => {
  it('joins the text parts on one line and cuts long questions after a word, within 60 characters', () => {
    expect(titleFromContent([{ type: 'text', text: '  How do I\n deploy?  ' }])).toBe('How do I deploy?');
    expect(titleFromContent([{ type: 'text', text: 'word '.repeat(30) }])).toBe(`${'word '.repeat(10)}word…`);
    expect(titleFromContent([{ type: 'text', text: 'x'.repeat(100) }])).toBe(`${'x'.repeat(59)}…`);
  });

  it('gives no title for a question without text', () => {
    expect(titleFromContent([])).toBeUndefined();
    expect(titleFromContent([{ type: 'text', text: ' \n ' }])).toBeUndefined();
  });
});

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`conversations on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(threads);
    });

    it('creates an empty "New chat" thread that only its owner sees', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });

      expect(thread).toMatchObject({ title: 'New chat', status: 'regular' });
      expect(thread).not.toHaveProperty('ownerEmail');
      expect(await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id })).toEqual({
        thread,
        messages: [],
      });
      expect(await listThreads(store.db, { ownerEmail: ada })).toEqual([thread]);
      expect(await listThreads(store.db, { ownerEmail: eve })).toEqual([]);
    });

    it('treats the owner e-mail case-insensitively', async () => {
      const thread = await createThread(store.db, { ownerEmail: 'Ada@ACME.example', title: 'Deploys' });

      expect(await listThreads(store.db, { ownerEmail: ada })).toEqual([thread]);
    });

    it('lists threads most recently active first, filtered by status', async () => {
      const older = await createThread(store.db, { ownerEmail: ada, title: 'Older' });
      await nextMillisecond();
      const newer = await createThread(store.db, { ownerEmail: ada, title: 'Newer' });
      await archiveThread(store.db, { ownerEmail: ada, threadId: newer.id });
      await nextMillisecond();
      const archivedNewer = { ...newer, status: 'archived' };

      expect(await listThreads(store.db, { ownerEmail: ada })).toEqual([archivedNewer, older]);
      expect(await listThreads(store.db, { ownerEmail: ada, status: 'regular' })).toEqual([older]);
      expect(await listThreads(store.db, { ownerEmail: ada, status: 'archived' })).toEqual([archivedNewer]);

      await appendMessage(store.db, { ownerEmail: ada, threadId: older.id, message: question('Still there?') });

      expect((await listThreads(store.db, { ownerEmail: ada })).map((thread) => thread.title)).toEqual([
        'Older',
        'Newer',
      ]);
    });

    it('keeps a conversation with its parts, attachments metadata, sources and status, oldest first', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const asked = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: {
          ...question('What does this error mean?'),
          id: 'client-id-1',
          attachments: [{ name: 'error.png', contentType: 'image/png', size: 1234 }],
        },
      });
      const answered = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: { ...answer('It means the build failed.', asked.id), status: 'incomplete' },
      });

      const found = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });

      expect(found?.messages).toEqual([asked, answered]);
      expect(found?.messages[0]).toMatchObject({
        id: 'client-id-1',
        parentId: null,
        role: 'user',
        content: [{ type: 'text', text: 'What does this error mean?' }],
        attachments: [{ name: 'error.png', contentType: 'image/png', size: 1234 }],
        sources: [],
        status: 'complete',
        feedback: null,
      });
      expect(found?.messages[1]).toMatchObject({
        parentId: 'client-id-1',
        role: 'assistant',
        sources: [{ title: 'Deploying', url: '/docs/deploying' }],
        status: 'incomplete',
      });
      const stored = await store.db
        .select({ kind: sql<string>`jsonb_typeof(${messages.content})` })
        .from(messages)
        .where(eq(messages.id, 'client-id-1'));
      expect(stored).toEqual([{ kind: 'array' }]);
    });

    it('keeps both answers of a reload as branches under the same question', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const asked = await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: question('Hi') });
      const first = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: answer('One', asked.id),
      });
      const second = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: answer('Two', asked.id),
      });
      const edited = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: question('Hello'),
      });

      const found = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });

      expect(found?.messages.map((message) => [message.id, message.parentId])).toEqual([
        [asked.id, null],
        [first.id, asked.id],
        [second.id, asked.id],
        [edited.id, null],
      ]);
      expect(found?.thread.title).toBe('Hi');
    });

    it('returns messages in the order they were added, even when they share a timestamp', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const added: string[] = [];
      // One transaction: now(), and so created_at, is the same for every message.
      await store.db.transaction(async (tx) => {
        let parentId: string | null = null;
        for (let turn = 0; turn < 12; turn++) {
          const message: NewMessage =
            turn % 2 === 0 ? question(`Q${turn}`, parentId) : answer(`A${turn}`, parentId ?? '');
          parentId = (await appendMessage(tx, { ownerEmail: ada, threadId: thread.id, message })).id;
          added.push(parentId);
        }
      });

      const found = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });

      expect(new Set(found?.messages.map((message) => message.createdAt.getTime())).size).toBe(1);
      expect(found?.messages.map((message) => message.id)).toEqual(added);
    });

    it('names the thread after its first question only, and never renames a titled thread', async () => {
      const untitled = await createThread(store.db, { ownerEmail: ada });
      await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: untitled.id,
        message: question(`How do I rotate the staging database credentials ${'without downtime '.repeat(3)}?`),
      });
      await appendMessage(store.db, { ownerEmail: ada, threadId: untitled.id, message: question('Second question') });
      const titled = await createThread(store.db, { ownerEmail: ada, title: 'Mine' });
      await appendMessage(store.db, { ownerEmail: ada, threadId: titled.id, message: question('First question') });
      const imageOnly = await createThread(store.db, { ownerEmail: ada });
      await appendMessage(store.db, { ownerEmail: ada, threadId: imageOnly.id, message: question(' ') });

      const titles = Object.fromEntries(
        (await listThreads(store.db, { ownerEmail: ada })).map((thread) => [thread.id, thread.title]),
      );

      expect(titles[untitled.id]).toBe('How do I rotate the staging database credentials without…');
      expect(titles[titled.id]).toBe('Mine');
      expect(titles[imageOnly.id]).toBe('New chat');
    });

    it('refuses a parent that is not a message of the same thread', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const other = await createThread(store.db, { ownerEmail: ada });
      const elsewhere = await appendMessage(store.db, { ownerEmail: ada, threadId: other.id, message: question('Hi') });

      await expectCode(
        appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: answer('x', elsewhere.id) }),
        'bad_request:parent_id',
      );
      await expectCode(
        appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: answer('x', 'never-existed') }),
        'bad_request:parent_id',
      );
      expect((await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id }))?.messages).toEqual([]);
    });

    it('refuses a message id that is already taken, without touching the first message', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: { ...question('A'), id: 'm1' } });

      await expectCode(
        appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: { ...question('B'), id: 'm1' } }),
        'conflict:message_id',
      );
      const found = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });
      expect(found?.messages.map((message) => message.content)).toEqual([[{ type: 'text', text: 'A' }]]);
    });

    it('renames a thread', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });

      const renamed = await renameThread(store.db, { ownerEmail: ada, threadId: thread.id, title: 'Deploys' });

      expect(renamed).toEqual({ ...thread, title: 'Deploys' });
      expect(await listThreads(store.db, { ownerEmail: ada })).toEqual([renamed]);
    });

    it('archives only regular threads and unarchives only archived ones', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const target = { ownerEmail: ada, threadId: thread.id };

      await expectCode(unarchiveThread(store.db, target), 'conflict:thread_status');
      expect((await archiveThread(store.db, target)).status).toBe('archived');
      await expectCode(archiveThread(store.db, target), 'conflict:thread_status');
      expect((await unarchiveThread(store.db, target)).status).toBe('regular');
    });

    it('renames and archives in one step, or does neither when the move is not allowed', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const target = { ownerEmail: ada, threadId: thread.id };

      expect(await updateThread(store.db, { ...target, title: 'Old', status: 'archived' })).toMatchObject({
        title: 'Old',
        status: 'archived',
      });
      await expectCode(
        updateThread(store.db, { ...target, title: 'Lost', status: 'archived' }),
        'conflict:thread_status',
      );
      expect(await updateThread(store.db, target)).toMatchObject({ title: 'Old', status: 'archived' });
    });

    it('deletes a thread with its messages and their feedback', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const kept = await createThread(store.db, { ownerEmail: ada });
      const asked = await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: question('Hi') });
      const answered = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: answer('Yo', asked.id),
      });
      await setFeedback(store.db, { ownerEmail: ada, messageId: answered.id, rating: 'positive' });
      await appendMessage(store.db, { ownerEmail: ada, threadId: kept.id, message: question('Kept') });

      await deleteThread(store.db, { ownerEmail: ada, threadId: thread.id });

      expect(await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id })).toBeUndefined();
      expect(await store.db.select({ id: messages.id }).from(messages)).toHaveLength(1);
      expect(await store.db.select().from(feedback)).toEqual([]);
      await expectCode(deleteThread(store.db, { ownerEmail: ada, threadId: thread.id }), 'not_found:thread');
    });

    it('sets, replaces and clears feedback on an answer', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const asked = await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: question('Hi') });
      const answered = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: answer('Yo', asked.id),
      });
      const target = { ownerEmail: ada, messageId: answered.id };
      const feedbackOf = async () =>
        (await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id }))?.messages[1]?.feedback;

      expect(await setFeedback(store.db, { ...target, rating: 'negative', comment: 'Outdated link' })).toMatchObject({
        rating: 'negative',
        comment: 'Outdated link',
      });
      expect(await feedbackOf()).toMatchObject({ rating: 'negative', comment: 'Outdated link' });

      await setFeedback(store.db, { ...target, rating: 'positive' });
      expect(await feedbackOf()).toMatchObject({ rating: 'positive', comment: null });

      await clearFeedback(store.db, target);
      await clearFeedback(store.db, target);
      expect(await feedbackOf()).toBeNull();
    });

    it('refuses feedback on a question', async () => {
      const thread = await createThread(store.db, { ownerEmail: ada });
      const asked = await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: question('Hi') });

      await expectCode(
        setFeedback(store.db, { ownerEmail: ada, messageId: asked.id, rating: 'positive' }),
        'bad_request:feedback_role',
      );
    });

    it("answers every function on another owner's thread or message exactly as for one that does not exist", async () => {
      const thread = await createThread(store.db, { ownerEmail: ada, title: 'Private' });
      const asked = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: question('Secret'),
      });
      const answered = await appendMessage(store.db, {
        ownerEmail: ada,
        threadId: thread.id,
        message: answer('Yes', asked.id),
      });
      await setFeedback(store.db, { ownerEmail: ada, messageId: answered.id, rating: 'positive' });
      const before = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });

      for (const threadId of [thread.id, 'never-existed']) {
        const target = { ownerEmail: eve, threadId };
        expect(await getThreadWithMessages(store.db, target)).toBeUndefined();
        await expectCode(appendMessage(store.db, { ...target, message: question('Mine now') }), 'not_found:thread');
        await expectCode(renameThread(store.db, { ...target, title: 'Mine now' }), 'not_found:thread');
        await expectCode(archiveThread(store.db, target), 'not_found:thread');
        await expectCode(unarchiveThread(store.db, target), 'not_found:thread');
        await expectCode(updateThread(store.db, { ...target, title: 'Mine now' }), 'not_found:thread');
        await expectCode(updateThread(store.db, target), 'not_found:thread');
        await expectCode(deleteThread(store.db, target), 'not_found:thread');
      }
      for (const messageId of [answered.id, 'never-existed']) {
        const target = { ownerEmail: eve, messageId };
        await expectCode(setFeedback(store.db, { ...target, rating: 'negative' }), 'not_found:message');
        await expectCode(clearFeedback(store.db, target), 'not_found:message');
      }
      const eveThread = await createThread(store.db, { ownerEmail: eve });
      await expectCode(
        appendMessage(store.db, { ownerEmail: eve, threadId: eveThread.id, message: answer('x', asked.id) }),
        'bad_request:parent_id',
      );

      expect(await listThreads(store.db, { ownerEmail: eve })).toEqual([eveThread]);
      expect(await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id })).toEqual(before);
    });

    if (backend.persistent) {
      it('keeps threads, branches and feedback after the store is closed and opened again', async () => {
        const thread = await createThread(store.db, { ownerEmail: ada });
        const asked = await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: question('Hi') });
        await appendMessage(store.db, { ownerEmail: ada, threadId: thread.id, message: answer('One', asked.id) });
        const second = await appendMessage(store.db, {
          ownerEmail: ada,
          threadId: thread.id,
          message: answer('Two', asked.id),
        });
        await setFeedback(store.db, { ownerEmail: ada, messageId: second.id, rating: 'negative', comment: 'Wrong' });
        const before = await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id });

        await store.reopen();

        expect(await getThreadWithMessages(store.db, { ownerEmail: ada, threadId: thread.id })).toEqual(before);
      });
    }
  });
}
