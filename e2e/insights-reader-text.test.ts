import type { InsightsResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { recordQuestion } from '../server/src/store/questions.js';
import { recordSearchQuery } from '../server/src/store/search-queries.js';
import { ratedDownConversation } from '../server/test-support/insights-history.js';
import { test } from './fixtures';

/**
 * What readers wrote reaches the maintainers' insights page as they wrote it, hidden direction characters and all: a
 * right-to-left override (U+202E) in a comment would otherwise turn round the closing quote and the " on …" after it.
 * Each reader's string is isolated (a `bdi` with dir="auto"), so it reorders nothing outside itself.
 */
const maintainer = 'docs.lead@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' }, readerEmail: maintainer });

const override = '\u202e';
const comment = `Great page ${override}!gnorw si siht`;
const question = `${override}Why does the TTL policy keep old rows`;

describe('the insights page shows what readers wrote', () => {
  test.beforeAll(async ({ server }) => {
    const db = server.store.db;
    const source = { url: '/firestore-ttl#create-a-policy', title: 'Firestore TTL › Create a policy' };
    await ratedDownConversation(db, { reader: 'eve', question, comment, source });
    await recordQuestion(db, {
      reader: 'ada',
      question: `Where is the VPN ${override}key kept`,
      mode: 'docs-only',
      covered: false,
      confidence: 'none',
      nearestPage: null,
      answerMessageId: 'vpn-key',
    });
    await recordSearchQuery(db, { reader: 'ada', query: `vpn ${override}yek`, resultCount: 0 });
  });

  test('isolates every string a reader wrote, so the text around it keeps its order', async ({
    server,
    sessionCookie,
    docsSite,
  }) => {
    const response = await server.app.inject({ url: '/api/insights?days=30', headers: { cookie: sessionCookie } });
    const insights = JSON.parse(response.body) as InsightsResponse;
    const written = [
      ...insights.unansweredTopics.flatMap((topic) => [topic.label, ...topic.examples]),
      ...insights.pagesRatedDown.flatMap((page) =>
        page.comments.flatMap((entry) => [entry.comment, ...(entry.question ? [entry.question] : [])]),
      ),
      ...[...insights.searches.noResult, ...insights.searches.noClick].map((miss) => miss.query),
    ];
    expect(written).toEqual(expect.arrayContaining([comment, question, `vpn ${override}yek`]));

    await docsSite.open('/insights');
    const page = docsSite.page;
    await page.getByTestId('insights').waitFor();
    // Each string's innermost element holding it alone: isolated (unicode-bidi), its direction its own first letter's.
    const shown = await page.getByTestId('insights').evaluate((root, strings) => {
      const holders = (text: string) =>
        [...root.querySelectorAll('*')].filter(
          (element) =>
            element.textContent === text && ![...element.children].some((child) => child.textContent === text),
        );
      return strings.map((text) => ({
        text,
        holders: holders(text).map((element) => ({
          unicodeBidi: getComputedStyle(element).unicodeBidi,
          dir: element.getAttribute('dir'),
        })),
      }));
    }, written);
    for (const { text, holders } of shown) {
      expect(holders.length, text).toBeGreaterThan(0);
      for (const holder of holders) expect(holder, text).toEqual({ unicodeBidi: 'isolate', dir: 'auto' });
    }

    // And as laid out: the closing quote after the comment stands to its right, not turned round into it.
    const item = page.getByTestId('insights-rated-down-page').locator('li').first();
    expect(await item.textContent()).toBe(`“${comment}” on “${question}”`);
    const [commentBox, quoteBox] = await item.evaluate((element) => {
      const isolated = element.querySelector('bdi');
      const quote = document.createRange();
      if (isolated?.nextSibling) quote.selectNode(isolated.nextSibling);
      return [isolated?.getBoundingClientRect().right ?? Number.NaN, quote.getBoundingClientRect().left];
    });
    expect(quoteBox).toBeGreaterThanOrEqual((commentBox ?? 0) - 1);
  });
});
