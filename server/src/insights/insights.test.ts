import { beforeAll, describe, expect, it } from 'vitest';
import { leakedToken, ratedDownConversation } from '../../test-support/insights-history.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { deleteThread } from '../store/conversations.js';
import type { Database } from '../store/database.js';
import { recordQuestion } from '../store/questions.js';
import { questions } from '../store/schema.js';
import { markSearchResultOpened, recordSearchQuery } from '../store/search-queries.js';
import { groupRatedDown, readInsights } from './insights.js';

const ada = 'ada@acme.example';
const bob = 'bob@acme.example';
const typesensePage = { url: '/installing-typesense-instance', title: 'Installing a Typesense instance' };
const cliSource = {
  title: 'Getting Started with acme-cli › Troubleshooting',
  url: '/getting-started-acme-cli/#troubleshooting',
};
const dayMs = 86_400_000;

async function seed(db: Database) {
  const unanswered = (question: string, answerMessageId: string, confidence?: 'closest' | 'none') =>
    recordQuestion(db, {
      reader: ada,
      question,
      mode: 'docs-only',
      covered: false,
      confidence,
      nearestPage: typesensePage,
      answerMessageId,
    });
  await unanswered('How do I rotate the Typesense admin key?', 'a1', 'closest');
  await unanswered('Where is the Typesense admin key rotated?', 'a2');
  await unanswered('Typesense api key rotate schedule', 'a3', 'none');
  const ratedDown = { source: cliSource, confidence: 'answered' } as const;
  await ratedDownConversation(db, {
    reader: ada,
    question: 'Why does npm say E401?',
    comment: `Too vague, token=${leakedToken}`,
    ...ratedDown,
  });
  const deleted = await ratedDownConversation(db, {
    reader: bob,
    question: 'A question bob later deleted',
    comment: 'bob deleted this',
    ...ratedDown,
  });
  await deleteThread(db, { reader: bob, threadId: deleted });
  // Ten days ago: in the 30-day period, not in the 7-day one.
  await db.insert(questions).values({
    id: 'old',
    reader: bob,
    question: 'An old covered question',
    mode: 'model',
    covered: true,
    sources: [],
    answerMessageId: 'old-answer',
    createdAt: new Date(Date.now() - 10 * dayMs),
  });
  await recordSearchQuery(db, { reader: ada, query: 'kubectl', resultCount: 0 });
  await recordSearchQuery(db, { reader: bob, query: 'Kubectl', resultCount: 0 });
  await recordSearchQuery(db, { reader: ada, query: 'typesense', resultCount: 3 });
  await recordSearchQuery(db, { reader: ada, query: `npm token=${leakedToken}`, resultCount: 2 });
  await recordSearchQuery(db, { reader: bob, query: 'deploy', resultCount: 5 });
  await markSearchResultOpened(db, { reader: bob, query: 'deploy' });
}

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`insights queries on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    beforeAll(async () => seed(store.db));

    it('counts questions a day by answered, closest and not covered, within the chosen period', async () => {
      const week = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });
      const month = await readInsights(store.db, { days: 30, lastDocsBuildAt: null });

      expect(week.questions).toMatchObject({ total: 4, answered: 1, closest: 1, none: 2 });
      expect(week.questions.perDay).toHaveLength(7);
      expect(week.questions.perDay.at(-1)).toEqual({
        day: new Date().toISOString().slice(0, 10),
        answered: 1,
        closest: 1,
        none: 2,
      });
      expect(month.questions).toMatchObject({ total: 5, answered: 2 });
      expect(month.questions.perDay).toHaveLength(30);
    });

    it('groups the unanswered questions into one topic near the page to extend, with examples', async () => {
      const { unansweredTopics } = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });

      expect(unansweredTopics).toHaveLength(1);
      expect(unansweredTopics[0]).toMatchObject({ page: typesensePage, readers: 1 });
      expect(unansweredTopics[0]?.label).toContain('typesense');
      expect(unansweredTopics[0]?.examples).toContain('How do I rotate the Typesense admin key?');
    });

    it('names the pages answers rest on and the pages rated down with their comments, masked', async () => {
      const insights = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });

      expect(insights.pagesAnswersRestOn).toEqual([
        { url: '/getting-started-acme-cli/', title: 'Getting Started with acme-cli', answers: 1 },
      ]);
      expect(insights.pagesRatedDown).toHaveLength(1);
      expect(insights.pagesRatedDown[0]).toMatchObject({ url: '/getting-started-acme-cli/', ratedDown: 1 });
      expect(insights.pagesRatedDown[0]?.comments).toEqual([
        expect.objectContaining({ question: 'Why does npm say E401?' }),
      ]);
    });

    it('lists searches with no result and with no result opened, credentials masked', async () => {
      const { searches } = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });

      expect(searches).toMatchObject({ total: 5, withoutResult: 2, withoutClick: 2 });
      expect(searches.noResult).toEqual([expect.objectContaining({ query: 'kubectl', readers: 2, searches: 2 })]);
      expect(searches.noClick.map((miss) => miss.query).sort()).toEqual(['npm token=[redacted]', 'typesense']);
    });

    it('dropsDeletedConversation: nothing of a deleted conversation, and no reader e-mail, reaches the insights', async () => {
      const json = JSON.stringify(await readInsights(store.db, { days: 90, lastDocsBuildAt: new Date() }));

      expect(json).not.toContain('bob deleted this');
      expect(json).not.toContain('A question bob later deleted');
      expect(json).not.toContain(ada);
      expect(json).not.toContain(bob);
      expect(json).not.toContain(leakedToken);
    });
  });
}

describe('groupRatedDown', () => {
  it('counts an answer rated down once, for the page it rests on, however many pages it cites', () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const pages = groupRatedDown([
      {
        sources: [
          { url: '/training/#week-1', title: 'Training Docs › Week 1' },
          { url: '/training-member-guideline/#feedback', title: 'Training member guideline › Feedback' },
        ],
        comment: 'Wrong week',
        question: 'What happens in week 1?',
        ratedAt: at,
      },
      { sources: [], comment: null, question: null, ratedAt: at },
    ]);
    expect(pages.map(({ url, title, ratedDown }) => ({ url, title, ratedDown }))).toEqual([
      { url: '', title: 'Answers that cited no page', ratedDown: 1 },
      { url: '/training/', title: 'Training Docs', ratedDown: 1 },
    ]);
    expect(pages[1]?.comments).toEqual([
      { comment: 'Wrong week', question: 'What happens in week 1?', at: at.toISOString() },
    ]);
  });
});
