import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { createThread, deleteThread } from './conversations.js';
import { appendMessage, setFeedback } from './messages.js';
import {
  findReportItems,
  maxRecordedQuestionCharacters,
  type NewQuestion,
  pruneQuestions,
  recordQuestion,
} from './questions.js';
import { feedback, messages, questions, threads } from './schema.js';

const ada = 'ada@acme.example';
const cliPage = { url: '/getting-started-acme-cli/', title: 'Getting Started with acme-cli' };
const cliSource = {
  title: 'Getting Started with acme-cli › Troubleshooting',
  url: '/getting-started-acme-cli/#troubleshooting',
};

const logged = (overrides: Partial<NewQuestion> & { answerMessageId: string }): NewQuestion => ({
  reader: ada,
  question: 'How do I fix npm E401 installing @acme/cli?',
  mode: 'docs-only',
  covered: false,
  nearestPage: cliPage,
  sources: [cliSource],
  ...overrides,
  confidence: overrides.confidence ?? (overrides.covered ? 'answered' : 'none'),
});

/** Times set explicitly, seconds apart: two statements in a row may read the same database clock. */
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`questions log on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(questions);
      await store.db.delete(threads);
    });

    /** A question and its answer saved in a thread, as a turn saves them, the answer under the id the turn streamed. */
    async function conversation(question: string, answerMessageId: string) {
      const thread = await createThread(store.db, { reader: ada });
      const asked = await appendMessage(store.db, {
        reader: ada,
        threadId: thread.id,
        message: { parentId: null, role: 'user', content: [{ type: 'text', text: question }] },
      });
      await appendMessage(store.db, {
        reader: ada,
        threadId: thread.id,
        message: {
          id: answerMessageId,
          parentId: asked.id,
          role: 'assistant',
          content: [{ type: 'text', text: 'The handbook covers this…' }],
          sources: [cliSource],
        },
      });
    }

    it('records a question with its reader and the text trimmed and capped, once per answer', async () => {
      await recordQuestion(store.db, logged({ answerMessageId: 'a1' }));
      await recordQuestion(store.db, logged({ answerMessageId: 'a1', question: 'a retry of the same answer' }));
      await recordQuestion(
        store.db,
        logged({ answerMessageId: 'a2', question: `  ${'x'.repeat(5000)}`, covered: true, nearestPage: null }),
      );
      await recordQuestion(store.db, logged({ answerMessageId: 'a3', confidence: 'closest' }));

      const rows = await store.db.select().from(questions).orderBy(questions.answerMessageId);

      expect(rows).toHaveLength(3);
      expect(rows.map((row) => row.confidence)).toEqual(['none', 'answered', 'closest']);
      expect(rows[0]).toMatchObject({
        reader: ada,
        question: 'How do I fix npm E401 installing @acme/cli?',
        mode: 'docs-only',
        covered: false,
        nearestPageUrl: cliPage.url,
        nearestPageTitle: cliPage.title,
        sources: [cliSource],
        answerMessageId: 'a1',
      });
      expect(rows[1]).toMatchObject({ covered: true, nearestPageUrl: null, nearestPageTitle: null });
      expect(rows[1]?.question).toHaveLength(maxRecordedQuestionCharacters);
    });

    it('masks credentials in the recorded question', async () => {
      await recordQuestion(
        store.db,
        logged({ answerMessageId: 'secret', question: 'Why?\n//gitlab.com/:_authToken=glpat-ABCDEFGHIJKLMNOPQRST12' }),
      );
      const [row] = await store.db.select().from(questions);
      expect(row?.question).toBe('Why?\n//gitlab.com/:_authToken=[redacted]');
    });

    it('keeps the question as the reader typed it beside the text searched, masked; none when nothing was typed', async () => {
      const searched = 'what does this mean and this one?\n$ firebase emulators:start';
      await recordQuestion(
        store.db,
        logged({
          answerMessageId: 'typed',
          question: searched,
          asked: '  and this one? token=glpat-ABCDEFGHIJKLMNOPQRST12 ',
        }),
      );
      await recordQuestion(store.db, logged({ answerMessageId: 'untyped', question: searched, asked: ' ' }));
      const rows = await store.db.select().from(questions).orderBy(questions.answerMessageId);
      expect(rows.map(({ answerMessageId, question, asked }) => ({ answerMessageId, question, asked }))).toEqual([
        { answerMessageId: 'typed', question: searched, asked: 'and this one? token=[redacted]' },
        { answerMessageId: 'untyped', question: searched, asked: null },
      ]);
    });

    it('forgets the questions of a deleted conversation, and only those', async () => {
      await conversation('first question', 'kept-answer');
      await conversation('second question', 'gone-answer');
      await recordQuestion(store.db, logged({ answerMessageId: 'kept-answer' }));
      await recordQuestion(store.db, logged({ answerMessageId: 'gone-answer' }));
      const [gone] = await store.db
        .select({ threadId: messages.threadId })
        .from(messages)
        .where(eq(messages.id, 'gone-answer'));
      await deleteThread(store.db, { reader: ada, threadId: gone?.threadId ?? '' });
      const left = await store.db.select({ id: questions.answerMessageId }).from(questions);
      expect(left.map((row) => row.id)).toEqual(['kept-answer']);
    });

    it('prunes questions older than the retention', async () => {
      await recordQuestion(store.db, logged({ answerMessageId: 'old' }));
      await recordQuestion(store.db, logged({ answerMessageId: 'new' }));
      await store.db
        .update(questions)
        .set({ createdAt: new Date(Date.now() - 100 * 86_400_000) })
        .where(eq(questions.answerMessageId, 'old'));
      expect(await pruneQuestions(store.db, new Date(Date.now() - 90 * 86_400_000))).toBe(1);
      const left = await store.db.select({ id: questions.answerMessageId }).from(questions);
      expect(left.map((row) => row.id)).toEqual(['new']);
    });

    it('refuses a mode other than docs-only or model', async () => {
      const insertWithMode = (id: string, mode: string) =>
        store.db.execute(
          sql`insert into questions (id, reader, question, mode, covered, answer_message_id) values (${id}, 'a', 'b', ${mode}, false, ${id})`,
        );
      await insertWithMode('allowed', 'docs-only');
      const refusal = await insertWithMode('refused', 'guess').catch((error: Error) => error);
      expect(String((refusal as Error).cause)).toMatch(/questions_mode_check/);
    });

    it('reports answers rated down with the comment, the question before them and their sources', async () => {
      await conversation('Why does npm say E401?', 'answer-1');
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-1', covered: true }));
      await setFeedback(store.db, { reader: ada, messageId: 'answer-1', rating: 'negative', comment: 'Too vague' });

      expect(await findReportItems(store.db, { limit: 10 })).toEqual([
        {
          kind: 'rated-down',
          at: expect.any(Date),
          question: 'Why does npm say E401?',
          comment: 'Too vague',
          covered: true,
          confidence: 'answered',
          mode: 'docs-only',
          nearestPage: cliPage,
          sources: [cliSource],
          answerMessageId: 'answer-1',
        },
      ]);
    });

    it('reports a rated-down screenshot question with the text read from the screenshot', async () => {
      await conversation('what does this mean?', 'answer-1');
      const read = 'what does this mean?\nnpm ERR! code E401 Unable to authenticate';
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-1', question: read, covered: true }));
      await setFeedback(store.db, { reader: ada, messageId: 'answer-1', rating: 'negative' });
      const [item] = await findReportItems(store.db, { limit: 10 });
      expect(item).toMatchObject({ kind: 'rated-down', question: read });
    });

    it("rejectsClaimingAnotherReadersAnswerId: a reader who logs under someone's answer id changes nothing of theirs", async () => {
      const mallory = 'mallory@acme.example';
      await recordQuestion(
        store.db,
        logged({
          reader: mallory,
          answerMessageId: 'answer-1',
          question: 'planted',
          covered: false,
          nearestPage: null,
        }),
      );
      await conversation('Why does npm say E401?', 'answer-1');
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-1', covered: true }));
      await setFeedback(store.db, { reader: ada, messageId: 'answer-1', rating: 'negative' });

      const rows = await store.db.select().from(questions).orderBy(questions.reader);
      expect(rows.map((row) => [row.reader, row.question])).toEqual([
        [ada, 'How do I fix npm E401 installing @acme/cli?'],
        [mallory, 'planted'],
      ]);
      const ratedDown = (await findReportItems(store.db, { limit: 10 })).filter((item) => item.kind === 'rated-down');
      expect(ratedDown).toEqual([
        expect.objectContaining({ question: 'Why does npm say E401?', covered: true, nearestPage: cliPage }),
      ]);
    });

    it('reports a rated-down answer that was never logged, from its thread alone', async () => {
      await conversation('Old question', 'answer-old');
      await setFeedback(store.db, { reader: ada, messageId: 'answer-old', rating: 'negative' });

      expect(await findReportItems(store.db, { limit: 10 })).toEqual([
        expect.objectContaining({ kind: 'rated-down', question: 'Old question', comment: null, covered: null }),
      ]);
    });

    it('leaves out answers rated up and questions the docs covered', async () => {
      await conversation('Good answer', 'answer-good');
      await setFeedback(store.db, { reader: ada, messageId: 'answer-good', rating: 'positive' });
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-good', covered: true }));

      expect(await findReportItems(store.db, { limit: 10 })).toEqual([]);
    });

    it('reports a question that was not covered once, as rated down, when its answer was rated down too', async () => {
      await conversation('Not covered and rated down', 'answer-both');
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-both', covered: false }));
      await setFeedback(store.db, { reader: ada, messageId: 'answer-both', rating: 'negative' });

      const items = await findReportItems(store.db, { limit: 10 });

      expect(items.map((item) => [item.kind, item.covered])).toEqual([['rated-down', false]]);
    });

    it('lists newest first, keeps only the newest `limit`, and only those since a time', async () => {
      const askedAt = (answerMessageId: string, at: Date) =>
        store.db.update(questions).set({ createdAt: at }).where(eq(questions.answerMessageId, answerMessageId));
      await recordQuestion(store.db, logged({ answerMessageId: 'q1', question: 'first' }));
      await askedAt('q1', secondsAgo(3));
      await conversation('second', 'q2');
      await setFeedback(store.db, { reader: ada, messageId: 'q2', rating: 'negative' });
      await store.db
        .update(feedback)
        .set({ updatedAt: secondsAgo(2) })
        .where(eq(feedback.messageId, 'q2'));
      await recordQuestion(store.db, logged({ answerMessageId: 'q3', question: 'third' }));
      await askedAt('q3', secondsAgo(1));
      const [third] = await store.db.select().from(questions).where(sql`${questions.answerMessageId} = 'q3'`);

      const questionsOf = async (query: Parameters<typeof findReportItems>[1]) =>
        (await findReportItems(store.db, query)).map((item) => item.question);

      expect(await questionsOf({ limit: 10 })).toEqual(['third', 'second', 'first']);
      expect(await questionsOf({ limit: 2 })).toEqual(['third', 'second']);
      expect(await questionsOf({ limit: 10, since: third?.createdAt })).toEqual(['third']);
      expect(await questionsOf({ limit: 10, since: new Date(Date.now() + 60_000) })).toEqual([]);
    });

    it('reading the report changes nothing', async () => {
      await conversation('kept', 'answer-kept');
      await setFeedback(store.db, { reader: ada, messageId: 'answer-kept', rating: 'negative', comment: 'c' });
      await recordQuestion(store.db, logged({ answerMessageId: 'answer-kept' }));
      const before = await store.db.execute(sql`select count(*)::int as n from messages`);

      await findReportItems(store.db, { limit: 10 });

      expect(await store.db.execute(sql`select count(*)::int as n from messages`)).toEqual(before);
      expect(await store.db.select().from(questions)).toHaveLength(1);
    });
  });
}
