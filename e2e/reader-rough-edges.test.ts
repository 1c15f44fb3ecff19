import { describe, expect } from 'vitest';
import { recordQuestion } from '../server/src/store/questions.js';
import { questions } from '../server/src/store/schema.js';
import { test } from './fixtures';
import type { DocsSite } from './pages/docs-site';
import { tokensApi, withToken } from './tokens-api';

/**
 * Three things a reader's review found, in Chromium: a doc page's title that broke inside a word beside its page menu,
 * the insights period that the address forgot, and an access-tokens page that said a token never reads a page's own
 * address.
 */
const maintainer = 'docs.lead@acme.dev';
const asker = 'ada.asker@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' }, readerEmail: maintainer });

// The file's server and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ server, browser }) => {
  expect(browser.isConnected()).toBe(true);
  expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

/**
 * The words of the page's title that the browser laid out on more than one line, and whether the page menu's button
 * covers any of the title's text.
 */
function titleLayout(site: DocsSite) {
  return site.page.evaluate(() => {
    const title = document.querySelector('.theme-doc-markdown h1') as HTMLElement;
    const button = document.querySelector('[data-testid="page-actions"] button') as HTMLElement;
    const buttonBox = button.getBoundingClientRect();
    const words: string[] = [];
    const splitWords: string[] = [];
    let covered = false;
    const texts = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const match of (node as Text).data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const boxes = [...range.getClientRects()].filter((box) => box.width > 1);
        if (boxes.length === 0) continue;
        words.push(match[0]);
        if (new Set(boxes.map((box) => Math.round(box.top))).size > 1) splitWords.push(match[0]);
        covered ||= boxes.some(
          (box) =>
            box.left < buttonBox.right &&
            buttonBox.left < box.right &&
            box.top < buttonBox.bottom &&
            buttonBox.top < box.bottom,
        );
      }
    }
    return { words: words.join(' '), splitWords, covered };
  });
}

describe("a doc page's title and its page menu", () => {
  const pages = [
    { route: '/development-onboarding/', title: 'Development onboarding' },
    { route: '/frontend-dev-rdr', title: 'Frontend Developer - Role Definition & Responsibilities' },
  ];
  // A phone, the narrowest desktop layout and a common one; the theme must change no size, so dark is tried once.
  const screens = [
    { width: 390, height: 844, colorScheme: 'light' },
    { width: 997, height: 800, colorScheme: 'light' },
    { width: 1280, height: 900, colorScheme: 'light' },
    { width: 390, height: 844, colorScheme: 'dark' },
  ] as const;
  for (const { colorScheme, ...viewport } of screens) {
    test(`wraps between words only, ${viewport.width} px wide in the ${colorScheme} theme`, async ({ docsSite }) => {
      await docsSite.page.emulateMedia({ colorScheme });
      await docsSite.page.setViewportSize(viewport);
      for (const { route, title } of pages) {
        await docsSite.open(route);
        expect(await docsSite.theme()).toBe(colorScheme);
        expect({ route, ...(await titleLayout(docsSite)) }).toEqual({
          route,
          words: title,
          splitWords: [],
          covered: false,
        });
      }
    });
  }
});

describe('the insights period', () => {
  // One question today and one ten days ago: 1 in the last 7 days, 2 in the last 30 or 90.
  test.beforeAll(async ({ server }) => {
    const db = server.store.db;
    await recordQuestion(db, {
      reader: asker,
      question: 'How do I rotate the Typesense admin key?',
      mode: 'docs-only',
      covered: true,
      nearestPage: null,
      answerMessageId: 'today',
    });
    await db.insert(questions).values({
      id: 'ten-days-ago',
      reader: asker,
      question: 'An older question',
      mode: 'docs-only',
      covered: true,
      answerMessageId: 'older',
      createdAt: new Date(Date.now() - 10 * 86_400_000),
    });
  });

  /** The period the page shows as chosen, and its count of questions once they are read. */
  async function shown(site: DocsSite) {
    await site.page.getByTestId('insights').waitFor();
    const chosen = await site.page.locator('input[name="insights-period"]:checked').getAttribute('value');
    return { days: Number(chosen), total: await site.page.getByTestId('insights-total').textContent() };
  }

  test('is kept in the address: a reload opens it again, Back leaves the page', async ({ docsSite }) => {
    const page = docsSite.page;
    await docsSite.open('/faqs/');
    await docsSite.open('/insights');
    expect(await shown(docsSite)).toEqual({ days: 30, total: '2' });

    await page.getByLabel('7 days').check();
    await expect.poll(() => new URL(page.url()).search).toBe('?days=7');
    await expect.poll(() => page.getByTestId('insights-total').textContent()).toBe('1');
    await page.reload();
    expect(await shown(docsSite)).toEqual({ days: 7, total: '1' });

    // A period is a view of the same page, so choosing one replaces the address: Back goes where the reader was before.
    await page.getByLabel('90 days').check();
    await expect.poll(() => new URL(page.url()).search).toBe('?days=90');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/faqs/');
  });

  test('opens the period of a shared link, and the default for a period the API does not take', async ({
    docsSite,
  }) => {
    await docsSite.open('/insights?days=7');
    expect(await shown(docsSite)).toEqual({ days: 7, total: '1' });
    for (const search of ['?days=8', '?days=week', '?days=']) {
      await docsSite.open(`/insights${search}`);
      expect({ search, ...(await shown(docsSite)) }).toEqual({ search, days: 30, total: '2' });
      expect(await docsSite.page.getByRole('alert').count()).toBe(0);
      // The address then says what is shown: the period it named is dropped.
      await expect.poll(() => new URL(docsSite.page.url()).search).toBe('');
    }
  });
});

describe('the access-tokens page', () => {
  test("names a page's own address as one a token reads as Markdown, and the server does so", async ({
    docsSite,
    server,
    sessionCookie,
  }) => {
    await docsSite.open('/access-tokens');
    const intro = docsSite.page.locator('main p').first();
    const told = (await intro.textContent()) ?? '';
    const addresses = await intro.locator('code').allTextContents();
    expect(addresses).toEqual(expect.arrayContaining(['/faqs/', '/faqs.md', '/llms.txt']));
    expect(told).not.toMatch(/never on the HTML pages/);

    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('rough edges');
    // As a script asks, and as a browser-like client that asks for HTML: the token gets Markdown at both addresses.
    for (const accept of ['*/*', 'text/html']) {
      for (const address of ['/faqs/', '/faqs.md']) {
        const response = await fetch(`${server.baseUrl}${address}`, withToken(token, { headers: { accept } }));
        const body = await response.text();
        expect({ address, accept, status: response.status, type: response.headers.get('content-type') }).toEqual({
          address,
          accept,
          status: 200,
          type: 'text/markdown; charset=utf-8',
        });
        expect(body).toMatch(/^# FAQs/);
        expect(body).not.toContain('<html');
      }
    }
  });
});
