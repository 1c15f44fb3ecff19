import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { failStaleAnswers, stillWriting, stopStaleAnswer } from './answer-progress.js';
import { createThread } from './conversations.js';
import { appendMessage, updateAnswer } from './messages.js';
import { messages, threads } from './schema.js';

const ada = 'ada@acme.example';
const eve = 'eve@acme.example';

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`answers in progress on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(threads);
    });

    /** A thread of `reader` with a question and an answer being written. */
    async function runningAnswer(reader = ada) {
      const threadId = (await createThread(store.db, { reader })).id;
      const asked = await appendMessage(store.db, { reader, threadId, message: question('How do I deploy?') });
      const answer = await appendMessage(store.db, {
        reader,
        threadId,
        message: { parentId: asked.id, role: 'assistant', content: [], status: 'running' },
      });
      await updateAnswer(store.db, { answerId: answer.id, text: 'Run the pipe', sources: [], status: 'running' });
      return { threadId, answerId: answer.id };
    }

    /** As if its instance had written nothing for `seconds`: it died that long ago. */
    const silentFor = (answerId: string, seconds: number) =>
      store.db
        .update(messages)
        .set({ progressAt: sql`now() - make_interval(secs => ${seconds})` })
        .where(eq(messages.id, answerId));

    const statusOf = async (answerId: string) =>
      (await store.db.select({ status: messages.status }).from(messages).where(eq(messages.id, answerId)))[0]?.status;

    it('failsAnAnswerCutByADeadInstance within a minute of its last progress, and leaves live ones running', async () => {
      const cut = await runningAnswer();
      const slow = await runningAnswer();
      const thinking = await runningAnswer();
      await silentFor(cut.answerId, 61);
      await silentFor(slow.answerId, 45);
      // A model thinking for long writes no text; its instance still says it writes the answer.
      await silentFor(thinking.answerId, 120);
      await stillWriting(store.db, [thinking.answerId]);

      expect(await failStaleAnswers(store.db)).toBe(1);

      expect(await statusOf(cut.answerId)).toBe('error');
      expect(await statusOf(slow.answerId)).toBe('running');
      expect(await statusOf(thinking.answerId)).toBe('running');
    });

    it('keepsProgressFresh while the answer is written: each stored piece counts as progress', async () => {
      const { answerId } = await runningAnswer();
      await silentFor(answerId, 61);
      await updateAnswer(store.db, { answerId, text: 'Run the pipeline', sources: [], status: 'running' });

      expect(await failStaleAnswers(store.db)).toBe(0);
    });

    it('stopsAStaleAnswer for its reader only, stored as stopped with what it wrote', async () => {
      const { threadId, answerId } = await runningAnswer();
      await silentFor(answerId, 61);

      expect(await stopStaleAnswer(store.db, { reader: eve, threadId })).toBe(false);
      expect(await stopStaleAnswer(store.db, { reader: ada, threadId })).toBe(true);

      const [stopped] = await store.db.select().from(messages).where(eq(messages.id, answerId));
      expect(stopped).toMatchObject({ status: 'incomplete', content: [{ type: 'text', text: 'Run the pipe' }] });
      expect(await stopStaleAnswer(store.db, { reader: ada, threadId })).toBe(false);
    });

    it('leavesAnAnswerStillWrittenElsewhere to its instance when Stop reaches another', async () => {
      const { threadId, answerId } = await runningAnswer();

      expect(await stopStaleAnswer(store.db, { reader: ada, threadId })).toBe(false);
      expect(await statusOf(answerId)).toBe('running');
    });

    it('neverTouchesAnEndedAnswer', async () => {
      const { answerId } = await runningAnswer();
      await updateAnswer(store.db, { answerId, text: 'Run the pipeline.', sources: [], status: 'complete' });
      await silentFor(answerId, 600);
      await stillWriting(store.db, [answerId]);

      expect(await failStaleAnswers(store.db)).toBe(0);
      expect(await statusOf(answerId)).toBe('complete');
    });
  });
}
