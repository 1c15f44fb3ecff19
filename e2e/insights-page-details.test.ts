import { describe, expect } from 'vitest';
import { recordQuestion } from '../server/src/store/questions.js';
import { runAxe } from './axe';
import { test } from './fixtures';

/** The insights page in Chromium, as a maintainer reads it: its links, and its charts beside their tables. */
const maintainer = 'docs.lead@acme.dev';
const asker = 'ada.asker@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' }, readerEmail: maintainer });

const typesense = { url: '/installing-typesense-instance', title: 'Installing a Typesense instance' };
const ttl = { url: '/firestore-ttl', title: 'Firestore TTL' };
const tunnel = { url: '/cloudflare-tunnel', title: 'Cloudflare tunnel' };
// A title shorter than "Extend " makes its card's line running text around the link, in axe's eyes.
const faqs = { url: '/faqs/', title: 'FAQs' };

describe('the insights page', () => {
  // Answers cite Firestore TTL three times, the tunnel twice, Typesense once; two questions found no page. The
  // browser starts here too, so the first test's time limit is its own.
  test.beforeAll(async ({ server, browser }) => {
    expect(browser.isConnected()).toBe(true);
    const db = server.store.db;
    const cited = [ttl, ttl, ttl, tunnel, tunnel, typesense];
    for (const [index, source] of cited.entries()) {
      await recordQuestion(db, {
        reader: asker,
        question: `Question ${index} about ${source.title}`,
        mode: 'docs-only',
        covered: true,
        nearestPage: null,
        sources: [source],
        answerMessageId: `cited-${index}`,
      });
    }
    for (const [index, nearestPage] of [typesense, faqs].entries()) {
      await recordQuestion(db, {
        reader: asker,
        question: `An unanswered question near ${nearestPage.title}`,
        mode: 'docs-only',
        covered: false,
        confidence: 'closest',
        nearestPage,
        answerMessageId: `unanswered-${index}`,
      });
    }
  });

  test('the navbar links the insights page for a maintainer', async ({ docsSite }) => {
    await docsSite.open('/firestore-ttl');
    const link = docsSite.page.getByTestId('insights-link');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/insights');
    await link.click();
    await docsSite.page.getByTestId('insights-topic').first().waitFor();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`tells the "Extend" links of the topic cards apart from their text by more than colour (${colorScheme})`, async ({
      docsSite,
    }) => {
      await docsSite.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await docsSite.open('/insights');
      await docsSite.page.getByTestId('insights-topic').first().waitFor();
      const rules = (await runAxe(docsSite.page, '[data-testid="insights-topics"]')).map((violation) => violation.id);
      expect(rules).not.toContain('link-in-text-block');
      expect(rules).toEqual([]);
    });
  }

  test('draws the pages answers rest on most first, from the top, like its table', async ({ docsSite }) => {
    await docsSite.open('/insights');
    const page = docsSite.page;
    await page.getByTestId('insights-pages').waitFor();
    const tableOrder = await page
      .getByTestId('insights-pages')
      .locator('tbody th')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent));
    expect(tableOrder).toEqual([ttl.title, tunnel.title, typesense.title]);
    const bars = page.getByTestId('insights-pages-chart').locator('.ct-bar');
    await expect.poll(() => bars.count()).toBe(3);
    // Each bar is a horizontal line: its y is where it sits; its length, x2 - x1, its number of answers.
    const topToBottom = await bars.evaluateAll((lines) =>
      lines
        .map((line) => ({
          y: Number(line.getAttribute('y1')),
          length: Number(line.getAttribute('x2')) - Number(line.getAttribute('x1')),
        }))
        .sort((above, below) => above.y - below.y)
        .map((bar) => bar.length),
    );
    expect(topToBottom).toEqual([...topToBottom].sort((longer, shorter) => shorter - longer));
    expect(topToBottom[0]).toBeGreaterThan(topToBottom[2] ?? Number.POSITIVE_INFINITY);
    const labelsTopToBottom = await page
      .getByTestId('insights-pages-chart')
      .locator('.ct-label.ct-vertical')
      .evaluateAll((labels) =>
        labels
          .map((label) => ({ y: label.getBoundingClientRect().top, text: label.textContent }))
          .sort((above, below) => above.y - below.y)
          .map((label) => label.text),
      );
    expect(labelsTopToBottom).toEqual(tableOrder);
  });
});
