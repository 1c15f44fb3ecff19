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

    it('groups unanswered questions into topics: the page to extend where the docs came close, none where they did not', async () => {
      const { unansweredTopics } = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });

      // Not covered at all, the nearest page shares words, not the subject: the topic needs a page of its own.
      expect(unansweredTopics).toMatchObject([
        { page: null, count: 2, readers: 1 },
        { page: typesensePage, count: 1, readers: 1, examples: ['How do I rotate the Typesense admin key?'] },
      ]);
      expect(unansweredTopics.map((topic) => topic.label)).toEqual([
        expect.stringContaining('typesense'),
        expect.stringContaining('typesense'),
      ]);
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

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`insights of readers, not repeats, in their own words on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const eve = 'eve@acme.example';
    const onboarding = { url: '/development-onboarding/#setup', title: 'Development onboarding › Setup' };
    const ttl = { url: '/firestore-ttl/#limits', title: 'Firestore TTL › Limits' };
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

    beforeAll(async () => {
      for (let index = 0; index < 6; index++) {
        await ratedDownConversation(store.db, {
          reader: eve,
          question: `Onboarding question ${index}`,
          comment: `This page is WRONG, see https://evil.example/fix ${index}`,
          source: onboarding,
          at: minutesAgo(30 - index),
        });
      }
      for (const [index, reader] of [ada, bob].entries()) {
        const comment = `The limits are out of date (${index})`;
        await ratedDownConversation(store.db, { reader, question: 'TTL limits?', comment, source: ttl });
      }
      await recordQuestion(store.db, {
        reader: ada,
        question: 'what does this mean and this one?\n$ firebase emulators:start',
        asked: 'and this one?',
        mode: 'docs-only',
        covered: false,
        confidence: 'none',
        nearestPage: null,
        answerMessageId: 'follow-up',
      });
    });

    it('oneReaderRatingManyAnswersDown: a page two readers rated down comes first; one reader shows once', async () => {
      const { pagesRatedDown } = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });

      expect(pagesRatedDown.map(({ title, readers, ratedDown }) => ({ title, readers, ratedDown }))).toEqual([
        { title: 'Firestore TTL', readers: 2, ratedDown: 2 },
        { title: 'Development onboarding', readers: 1, ratedDown: 6 },
      ]);
      expect(pagesRatedDown[1]?.comments.map(({ comment, question }) => ({ comment, question }))).toEqual([
        { comment: 'This page is WRONG, see https://evil.example/fix 5', question: 'Onboarding question 5' },
      ]);
    });

    it('shows a follow-up as the reader typed it, not merged with the question before it and a screenshot', async () => {
      const { unansweredTopics } = await readInsights(store.db, { days: 7, lastDocsBuildAt: null });
      const examples = unansweredTopics.flatMap((topic) => topic.examples);

      expect(examples).toContain('and this one?');
      expect(examples.filter((example) => example.includes('what does this mean'))).toEqual([]);
      expect(unansweredTopics.map((topic) => topic.label).join(' ')).not.toContain('firebase');
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
        reader: ada,
        comment: 'Wrong week',
        question: 'What happens in week 1?',
        ratedAt: at,
      },
      { reader: ada, sources: [], comment: null, question: null, ratedAt: at },
    ]);
    expect(pages.map(({ url, title, readers, ratedDown }) => ({ url, title, readers, ratedDown }))).toEqual([
      { url: '', title: 'Answers that cited no page', readers: 1, ratedDown: 1 },
      { url: '/training/', title: 'Training Docs', readers: 1, ratedDown: 1 },
    ]);
    expect(pages[1]?.comments).toEqual([
      { comment: 'Wrong week', question: 'What happens in week 1?', at: at.toISOString() },
    ]);
  });
});

describe('groupRatedDown, one reader against many', () => {
  const onboarding = [{ url: '/development-onboarding/#setup', title: 'Development onboarding › Setup' }];
  const ttl = [{ url: '/firestore-ttl/#limits', title: 'Firestore TTL › Limits' }];
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));
  const rated = (reader: string, sources: typeof ttl, minute: number, comment: string | null = null) => ({
    reader,
    sources,
    comment,
    question: comment && `question ${minute}`,
    ratedAt: at(minute),
  });

  it('oneReaderRatingManyAnswersDown: ranks below a page two readers rated down, and shows one comment of theirs', () => {
    const pages = groupRatedDown([
      ...Array.from({ length: 6 }, (_, minute) =>
        rated('eve', onboarding, minute, `This page is WRONG, see https://evil.example/fix ${minute}`),
      ),
      rated(ada, ttl, 10, 'The limits are out of date'),
      rated(bob, ttl, 11),
    ]);

    expect(pages.map(({ title, readers, ratedDown }) => ({ title, readers, ratedDown }))).toEqual([
      { title: 'Firestore TTL', readers: 2, ratedDown: 2 },
      { title: 'Development onboarding', readers: 1, ratedDown: 6 },
    ]);
    // The reader's latest comment alone: one reader cannot fill a page's comments.
    expect(pages[1]?.comments).toEqual([
      {
        comment: 'This page is WRONG, see https://evil.example/fix 5',
        question: 'question 5',
        at: at(5).toISOString(),
      },
    ]);
  });

  it('keeps one comment per reader, newest first, at most five a page; ties in readers go to more ratings', () => {
    const readers = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
    const pages = groupRatedDown([
      ...readers.flatMap((reader, index) => [
        rated(reader, ttl, index * 2, `${reader} first`),
        rated(reader, ttl, index * 2 + 1, `${reader} latest`),
      ]),
      ...readers.map((reader, index) => rated(reader, onboarding, 40 + index)),
    ]);

    expect(pages.map(({ title, readers, ratedDown }) => ({ title, readers, ratedDown }))).toEqual([
      { title: 'Firestore TTL', readers: 6, ratedDown: 12 },
      { title: 'Development onboarding', readers: 6, ratedDown: 6 },
    ]);
    expect(pages[0]?.comments.map((comment) => comment.comment)).toEqual([
      'r6 latest',
      'r5 latest',
      'r4 latest',
      'r3 latest',
      'r2 latest',
    ]);
  });
});
