import { maxMessagesPerThread } from '@acme/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectApiError } from '../../test-support/api-errors.js';
import { answer, question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { createThread, getThreadWithMessages, listThreads } from './conversations.js';
import {
  appendMessage,
  clearFeedback,
  conversationUpTo,
  type NewMessage,
  setFeedback,
  titleFromContent,
} from './messages.js';
import { messages, threads } from './schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
  describe.skipIf(backend.skipped)(`messages on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    let threadId: string;
    /** Appends a message and returns it as the thread then stores it (without the thread's title and version). */
    const append = async (message: NewMessage) => {
      const {
        threadTitle: _,
        threadVersion: __,
        ...appended
      } = await appendMessage(store.db, { reader: ada, threadId, message });
      return appended;
    };
    const upTo = (messageId: string, target = { reader: ada, threadId }) =>
      conversationUpTo(store.db, { ...target, messageId });
    const stored = async () => (await getThreadWithMessages(store.db, { reader: ada, threadId }))?.messages;

    beforeEach(async () => {
      await store.db.delete(threads);
      threadId = (await createThread(store.db, { reader: ada })).id;
    });

    it("says the thread's updatedAt before a message was added and once it was, as the list then shows it", async () => {
      const [created] = (await listThreads(store.db, { reader: ada })).threads;
      const first = await appendMessage(store.db, { reader: ada, threadId, message: question('First?') });
      const [listed] = (await listThreads(store.db, { reader: ada })).threads;
      const reply = await appendMessage(store.db, {
        reader: ada,
        threadId,
        message: answer('First.', first.id),
      });

      expect(first.threadVersion.before).toEqual(created?.updatedAt);
      expect(first.threadVersion.after).toEqual(listed?.updatedAt);
      expect(reply.threadVersion.before).toEqual(first.threadVersion.after);
      expect(reply.threadVersion.after.getTime()).toBeGreaterThanOrEqual(first.threadVersion.after.getTime());
      const [now] = (await listThreads(store.db, { reader: ada })).threads;
      expect(reply.threadVersion.after).toEqual(now?.updatedAt);
    });

    it('holds at most maxMessagesPerThread messages in a chat: a question leaves room for its answer', async () => {
      // 498 messages of earlier turns, written at once: one chain of questions and answers.
      const earlier = Array.from({ length: maxMessagesPerThread - 2 }, (_, index) => ({
        id: `earlier-${index}`,
        threadId,
        parentId: index === 0 ? null : `earlier-${index - 1}`,
        role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: [{ type: 'text' as const, text: `turn ${index}` }],
      }));
      await store.db.insert(messages).values(earlier);
      const last = await append(question('One more?', `earlier-${maxMessagesPerThread - 3}`));
      const answered = await append(answer('Yes, the last one.', last.id));

      await expectApiError(append(question('And another?', answered.id)), 'conflict:thread_full');
      // Asked again (Refresh), the last question would get a second answer: no room for it either.
      await expectApiError(append(answer('Again.', last.id)), 'conflict:thread_full');
      expect(await stored()).toHaveLength(maxMessagesPerThread);
      // Another chat of the same reader is not affected.
      const other = (await createThread(store.db, { reader: ada })).id;
      await appendMessage(store.db, { reader: ada, threadId: other, message: question('New topic') });
    });

    it('keeps a conversation with its parts, attachments metadata, sources and status, under ids it makes', async () => {
      const asked = await append({
        ...question('What does this error mean?'),
        attachments: [{ name: 'error.png', contentType: 'image/png', size: 1234 }],
      });
      const answered = await append({ ...answer('It means the build failed.', asked.id), status: 'incomplete' });

      expect(asked.id).toMatch(uuid);
      expect(answered.id).toMatch(uuid);
      expect(answered.id).not.toBe(asked.id);
      expect(await stored()).toEqual([asked, answered]);
      expect(asked).toMatchObject({
        parentId: null,
        role: 'user',
        content: [{ type: 'text', text: 'What does this error mean?' }],
        attachments: [{ name: 'error.png', contentType: 'image/png', size: 1234 }],
        sources: [],
        status: 'complete',
        feedback: null,
      });
      expect(answered).toMatchObject({
        parentId: asked.id,
        role: 'assistant',
        sources: [{ title: 'Deploying', url: '/docs/deploying' }],
        status: 'incomplete',
      });
      const kinds = await store.db
        .select({ kind: sql<string>`jsonb_typeof(${messages.content})` })
        .from(messages)
        .where(eq(messages.id, asked.id));
      expect(kinds).toEqual([{ kind: 'array' }]);
    });

    it('keeps both answers of a reload as branches under the same question, and an edit beside the question', async () => {
      const asked = await append(question('Hi'));
      const first = await append(answer('One', asked.id));
      const second = await append(answer('Two', asked.id));
      const edited = await append(question('Hello'));

      expect((await stored())?.map((message) => [message.id, message.parentId])).toEqual([
        [asked.id, null],
        [first.id, asked.id],
        [second.id, asked.id],
        [edited.id, null],
      ]);
      // The edit is the thread's first question now, and its title was the first question's: it follows.
      expect((await listThreads(store.db, { reader: ada })).threads[0]?.title).toBe('Hello');
    });

    it('returns messages in the order they were added, even when they share a timestamp', async () => {
      const added: string[] = [];
      // One transaction: now(), and so created_at, is the same for every message.
      await store.db.transaction(async (tx) => {
        let parentId: string | null = null;
        for (let turn = 0; turn < 12; turn++) {
          const message: NewMessage =
            turn % 2 === 0 ? question(`Q${turn}`, parentId) : answer(`A${turn}`, parentId ?? '');
          parentId = (await appendMessage(tx, { reader: ada, threadId, message })).id;
          added.push(parentId);
        }
      });

      const found = await stored();

      expect(new Set(found?.map((message) => message.createdAt.getTime())).size).toBe(1);
      expect(found?.map((message) => message.id)).toEqual(added);
    });

    it('names the thread after its first question only, and never renames a titled thread', async () => {
      const inThread = (message: NewMessage, target = threadId) =>
        appendMessage(store.db, { reader: ada, threadId: target, message });
      const first = await inThread(
        question(`How do I rotate the staging database credentials ${'without downtime '.repeat(3)}?`),
      );
      const firstAnswer = await inThread(answer('An answer', first.id));
      const second = await inThread(question('Second question', firstAnswer.id));
      const titled = await createThread(store.db, { reader: ada, title: 'Mine' });
      const intoTitled = await inThread(question('First question'), titled.id);
      const imageOnly = await createThread(store.db, { reader: ada });
      const intoImageOnly = await inThread(question(' '), imageOnly.id);

      const titles = Object.fromEntries(
        (await listThreads(store.db, { reader: ada })).threads.map((thread) => [thread.id, thread.title]),
      );

      expect(titles[threadId]).toBe('How do I rotate the staging database credentials without…');
      expect(titles[titled.id]).toBe('Mine');
      expect(titles[imageOnly.id]).toBe('New chat');
      // Each append says the title the thread has with the message in.
      expect([first, firstAnswer, second, intoTitled, intoImageOnly].map((message) => message.threadTitle)).toEqual([
        titles[threadId],
        titles[threadId],
        titles[threadId],
        'Mine',
        'New chat',
      ]);
    });

    it('refuses a parent that is not a message of the same thread', async () => {
      const other = await createThread(store.db, { reader: ada });
      const elsewhere = await appendMessage(store.db, { reader: ada, threadId: other.id, message: question('Hi') });

      await expectApiError(append(answer('x', elsewhere.id)), 'bad_request:parent_id');
      await expectApiError(append(answer('x', 'never-existed')), 'bad_request:parent_id');
      expect(await stored()).toEqual([]);
    });

    it('refuses a question under a question and an answer under an answer or under nothing', async () => {
      const asked = await append(question('Hi'));
      const answered = await append(answer('Yo', asked.id));

      await expectApiError(append(question('Again', asked.id)), 'bad_request:parent_id');
      await expectApiError(append(answer('Again', answered.id)), 'bad_request:parent_id');
      await expectApiError(append({ ...answer('Out of nowhere', ''), parentId: null }), 'bad_request:parent_id');
      expect(await stored()).toEqual([asked, answered]);
    });

    it('reads the branch from the first question down to a message, whichever branches sit beside it', async () => {
      const first = await append(question('How do I deploy?'));
      const reply = await append(answer('Run the pipeline.', first.id));
      const followUp = await append(question('And roll back?', reply.id));
      const rollback = await append(answer('Run the rollback job.', followUp.id));
      const reloaded = await append(answer('Revert the tag.', followUp.id));
      const edited = await append(question('How do I release?'));
      const editedReply = await append(answer('Tag it.', edited.id));

      const idsUpTo = async (messageId: string) => (await upTo(messageId)).map((message) => message.id);

      expect(await upTo(reloaded.id)).toEqual([first, reply, followUp, reloaded]);
      expect(await idsUpTo(rollback.id)).toEqual([first.id, reply.id, followUp.id, rollback.id]);
      expect(await idsUpTo(first.id)).toEqual([first.id]);
      expect(await idsUpTo(editedReply.id)).toEqual([edited.id, editedReply.id]);
    });

    it("finds no branch in another reader's thread, nor to a message of another thread", async () => {
      const asked = await append(question('Secret'));
      const other = await createThread(store.db, { reader: ada });
      const elsewhere = await appendMessage(store.db, { reader: ada, threadId: other.id, message: question('Hi') });

      await expectApiError(upTo(asked.id, { reader: eve, threadId }), 'not_found:thread');
      await expectApiError(upTo(asked.id, { reader: ada, threadId: 'never-existed' }), 'not_found:thread');
      await expectApiError(upTo(elsewhere.id), 'not_found:message');
      await expectApiError(upTo('never-existed'), 'not_found:message');
    });

    it('sets, replaces and clears feedback on an answer', async () => {
      const asked = await append(question('Hi'));
      const answered = await append(answer('Yo', asked.id));
      const target = { reader: ada, messageId: answered.id };
      const feedbackOf = async () => (await stored())?.[1]?.feedback;

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
      const asked = await append(question('Hi'));

      await expectApiError(
        setFeedback(store.db, { reader: ada, messageId: asked.id, rating: 'positive' }),
        'bad_request:feedback_role',
      );
    });

    it("answers every function on another reader's thread or message exactly as for one that does not exist", async () => {
      const asked = await append(question('Secret'));
      const answered = await append(answer('Yes', asked.id));
      await setFeedback(store.db, { reader: ada, messageId: answered.id, rating: 'positive' });
      const before = await stored();

      for (const target of [
        { reader: eve, threadId },
        { reader: eve, threadId: 'never-existed' },
      ]) {
        await expectApiError(appendMessage(store.db, { ...target, message: question('Mine now') }), 'not_found:thread');
        await expectApiError(conversationUpTo(store.db, { ...target, messageId: answered.id }), 'not_found:thread');
      }
      for (const messageId of [answered.id, 'never-existed']) {
        const target = { reader: eve, messageId };
        await expectApiError(setFeedback(store.db, { ...target, rating: 'negative' }), 'not_found:message');
        await expectApiError(clearFeedback(store.db, target), 'not_found:message');
      }
      const evesThread = await createThread(store.db, { reader: eve });
      await expectApiError(
        appendMessage(store.db, { reader: eve, threadId: evesThread.id, message: question('Graft', answered.id) }),
        'bad_request:parent_id',
      );

      expect(await stored()).toEqual(before);
      expect((await getThreadWithMessages(store.db, { reader: eve, threadId: evesThread.id }))?.messages).toEqual([]);
    });
  });
}
