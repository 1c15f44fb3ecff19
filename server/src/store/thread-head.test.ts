import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectApiError } from '../../test-support/api-errors.js';
import { answer, question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { createThread, getThreadWithMessages, renameThread } from './conversations.js';
import { appendMessage } from './messages.js';
import { threads } from './schema.js';
import { setThreadHead } from './thread-head.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`the branch a thread reopens on, on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    let threadId: string;
    const append = async (message: Parameters<typeof appendMessage>[1]['message']) =>
      (await appendMessage(store.db, { reader: ada, threadId, message })).id;
    const headOf = async (id = threadId) =>
      (await getThreadWithMessages(store.db, { reader: ada, threadId: id }))?.headId;

    /** A question answered twice (a Refresh): the two answers are the two branches. */
    async function refreshedAnswer() {
      const asked = await append(question('How do I deploy?'));
      return { first: await append(answer('Run deploy.', asked)), second: await append(answer('Use CI.', asked)) };
    }

    beforeEach(async () => {
      await store.db.delete(threads);
      threadId = (await createThread(store.db, { reader: ada })).id;
    });

    it('reopens on the newest branch until the reader switches, then on the one switched to', async () => {
      const { first } = await refreshedAnswer();
      expect(await headOf()).toBeNull();

      await setThreadHead(store.db, { reader: ada, threadId, messageId: first });

      expect(await headOf()).toBe(first);
    });

    it('forgets the switch once a message is added: the new message is the one shown', async () => {
      const { first } = await refreshedAnswer();
      await setThreadHead(store.db, { reader: ada, threadId, messageId: first });

      await append(question('And roll back?', first));

      expect(await headOf()).toBeNull();
    });

    it('forgets the switch once a message is added by an instance that does not clear it (a rolling restart)', async () => {
      const { first } = await refreshedAnswer();
      // Again and again, so a message added within the switch's millisecond (PGlite's clock granularity) is among them.
      for (let round = 0; round < 20; round++) {
        await setThreadHead(store.db, { reader: ada, threadId, messageId: first });
        // Code from before the head was kept adds a message and leaves the head as it was.
        const [kept] = await store.db.select().from(threads).where(eq(threads.id, threadId));
        await append(question(`And roll back, take ${round}?`, first));
        await store.db
          .update(threads)
          .set({ headMessageId: kept?.headMessageId, headAfterSequence: kept?.headAfterSequence })
          .where(eq(threads.id, threadId));

        expect(await headOf()).toBeNull();
      }
    });

    it("refuses a message of another thread, an unknown one and another reader's thread, changing nothing", async () => {
      const { first } = await refreshedAnswer();
      const other = (await createThread(store.db, { reader: ada })).id;
      const elsewhere = (await appendMessage(store.db, { reader: ada, threadId: other, message: question('Other?') }))
        .id;
      const evesThread = (await createThread(store.db, { reader: eve })).id;

      await expectApiError(
        setThreadHead(store.db, { reader: ada, threadId, messageId: elsewhere }),
        'not_found:message',
      );
      await expectApiError(
        setThreadHead(store.db, { reader: ada, threadId, messageId: 'unknown' }),
        'not_found:message',
      );
      await expectApiError(setThreadHead(store.db, { reader: eve, threadId, messageId: first }), 'not_found:thread');
      await expectApiError(
        setThreadHead(store.db, { reader: ada, threadId: evesThread, messageId: first }),
        'not_found:thread',
      );
      expect(await headOf()).toBeNull();
      expect(await headOf(other)).toBeNull();
    });

    it('names a thread after the first question of the branch switched to, unless the reader named it', async () => {
      const asked = await append(question('How do I deploy?'));
      const firstAnswer = await append(answer('Run deploy.', asked));
      const edited = await append(question('How do I roll back?'));
      await append(answer('Redeploy the tag.', edited));
      expect((await getThreadWithMessages(store.db, { reader: ada, threadId }))?.thread.title).toBe(
        'How do I roll back?',
      );

      expect(await setThreadHead(store.db, { reader: ada, threadId, messageId: firstAnswer })).toEqual({
        title: 'How do I deploy?',
      });
      expect((await getThreadWithMessages(store.db, { reader: ada, threadId }))?.thread.title).toBe('How do I deploy?');

      await renameThread(store.db, { reader: ada, threadId, title: 'Releases' });
      expect(await setThreadHead(store.db, { reader: ada, threadId, messageId: edited })).toEqual({
        title: 'Releases',
      });
    });
  });
}
