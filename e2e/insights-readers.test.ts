import { readFile } from 'node:fs/promises';
import type { InsightsResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { recordQuestion } from '../server/src/store/questions.js';
import { questions } from '../server/src/store/schema.js';
import { recordSearchQuery } from '../server/src/store/search-queries.js';
import { ratedDownConversation } from '../server/test-support/insights-history.js';
import { copilotClient } from './ask-fixtures';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { readerKeyOfEmail } from './threads-api';

/**
 * The insights count and quote readers, not repeats: one reader rating answer after answer down, each with a comment
 * of their choosing, ranks below a page two readers rated down and shows one comment; a question is shown as the
 * reader typed it, not as it was searched for; counts read "1 search", not "1 searches".
 */
const maintainer = 'docs.lead@acme.dev';
const asker = 'ada.asker@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' }, readerEmail: maintainer });

const onboarding = { url: '/development-onboarding#setup', title: 'Development onboarding › Setup' };
const ttl = { url: '/firestore-ttl#create-a-policy', title: 'Firestore TTL › Create a policy' };
const screenshot = async () => ({
  type: 'image',
  contentType: 'image/png',
  content: (
    await readFile(new URL('../server/test-support/fixtures/npm-e401-terminal@2x.png', import.meta.url))
  ).toString('base64'),
});

describe('the insights count readers and show what they typed', () => {
  test.beforeAll(async ({ server }) => {
    const db = server.store.db;
    for (let index = 0; index < 6; index++) {
      await ratedDownConversation(db, {
        reader: 'eve',
        question: `Onboarding question ${index}`,
        comment: `This page is WRONG, see https://evil.example/fix ${index}`,
        source: onboarding,
        at: new Date(Date.now() - (30 - index) * 60_000),
      });
    }
    for (const reader of ['ada', 'bob']) {
      await ratedDownConversation(db, { reader, question: 'TTL?', comment: `${reader}: out of date`, source: ttl });
    }
    // The ratings' questions are left out of the counts: one question and one search, to read their wording.
    await db.delete(questions);
    await recordQuestion(db, {
      reader: 'ada',
      question: 'How do I rotate the Typesense admin key?',
      mode: 'docs-only',
      covered: true,
      nearestPage: null,
      answerMessageId: 'one-question',
    });
    await recordSearchQuery(db, { reader: 'ada', query: 'qjxzvkw', resultCount: 0 });
  });

  test('oneReaderRatingManyAnswersDown: ranks below two readers, with one comment; counts read in the singular', async ({
    docsSite,
  }) => {
    await docsSite.open('/insights');
    const page = docsSite.page;
    await page.getByTestId('insights').waitFor();

    const pages = page.getByTestId('insights-rated-down-page');
    expect(await pages.count()).toBe(2);
    expect(await pages.nth(0).locator('h3').textContent()).toBe('Firestore TTL (2 readers, 2 ratings down)');
    expect(await pages.nth(1).locator('h3').textContent()).toBe('Development onboarding (1 reader, 6 ratings down)');
    expect(await pages.nth(1).locator('li').allTextContents()).toEqual([
      '“This page is WRONG, see https://evil.example/fix 5” on “Onboarding question 5”',
    ]);
    expect(await page.getByTestId('insights-questions-summary').textContent()).toMatch(/^1 question in the last 30/);
    expect(await page.getByTestId('insights-searches-summary').textContent()).toBe(
      '1 search: 1 found nothing, 0 found results nobody opened.',
    );

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = (await readFile((await csv.path()) ?? '', 'utf8')).split('\r\n');
    const ratedDown = lines.filter((line) => line.startsWith('page-rated-down,'));
    expect(
      ratedDown.map((line) =>
        line
          .split(',')
          .slice(1, 4)
          .concat(line.split(',').at(-1) ?? ''),
      ),
    ).toEqual([
      ['Firestore TTL', '/firestore-ttl', '2', '2'],
      ['Development onboarding', '/development-onboarding', '6', '1'],
    ]);
  });

  test('shows a follow-up and a screenshot alone as asked, while the search still reads both', async ({
    server,
    sessionCookie,
  }) => {
    const db = server.store.db;
    const copilot = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, asker));
    const user = async (text: string) => ({
      role: 'user',
      content: [{ type: 'text', text }],
      attachments: [await screenshot()],
    });
    const followUp = [
      await user('what does this mean'),
      { role: 'assistant', content: [{ type: 'text', text: 'Your GitLab token is missing.' }], attachments: [] },
      await user('and this one?'),
    ];
    expect((await copilot.ask({ messages: followUp })).status).toBe(200);
    expect((await copilot.ask({ messages: [await user('')] })).status).toBe(200);

    const reader = await readerKeyOfEmail(db, asker);
    const logged = (await db.select().from(questions)).filter((row) => row.reader === reader);
    expect(logged.map((row) => row.asked)).toEqual(
      expect.arrayContaining([
        'and this one?',
        expect.stringMatching(/^[^\n]*\$ npm i -g @acme\/cli npm ERR! code E401 [^\n]*…$/),
      ]),
    );
    // The question kept for the report is the reader's own with the screenshot's text; the search read the follow-up
    // with the question before it, which is no question the reader asked.
    expect(logged.map((row) => row.question)).toContainEqual(expect.stringMatching(/^and this one\?\n.*E401/s));
    expect(logged.map((row) => row.question).join('\n')).not.toContain('what does this mean and this one');
    for (const row of logged) expect(row.asked?.length).toBeLessThanOrEqual(121);

    // Whatever the docs answered, the questions are read as not covered, where the insights quote them.
    await db.update(questions).set({ covered: false, confidence: 'none' });
    const response = await server.app.inject({ url: '/api/insights?days=7', headers: { cookie: sessionCookie } });
    const insights = JSON.parse(response.body) as InsightsResponse;
    const examples = insights.unansweredTopics.flatMap((topic) => topic.examples);
    expect(examples).toContain('and this one?');
    expect(examples.filter((example) => example.includes('what does this mean'))).toEqual([]);
    expect(examples.filter((example) => example.includes('npm ERR! code E401'))).toHaveLength(1);
  });
});
