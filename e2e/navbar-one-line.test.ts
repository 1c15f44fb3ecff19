import type { BrowserContext } from 'playwright-core';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';
import { topNavigation } from './spec-routes';

/**
 * In Chromium: wherever Docusaurus shows the desktop navbar (997 px and wider), it is one line with the whole
 * handbook title, for a reader and for a maintainer, whose navbar has one item more ("Insights").
 */
const maintainer = 'docs.lead@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' } });

// The file's server and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ server, browser }) => {
  expect(browser.isConnected()).toBe(true);
  expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

/**
 * Where each shown item of the navbar sits (the brand is the left group's first item), how many lines its words take,
 * and whether the title is cut short.
 */
async function navbarLayout(site: DocsSite) {
  return site.page.evaluate(() => {
    const inner = document.querySelector('.navbar__inner') as HTMLElement;
    const navbar = inner.closest('.navbar') as HTMLElement;
    const title = inner.querySelector('.navbar__title') as HTMLElement;
    const lineCount = (element: HTMLElement) => {
      const tops = new Set<number>();
      const words = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = words.nextNode(); node; node = words.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        // Text hidden from sight (a closed menu, visually hidden words in 1 px boxes) is on no line a reader sees.
        if (getComputedStyle(node.parentElement as Element).visibility === 'hidden') continue;
        for (const rect of range.getClientRects()) if (rect.width > 1) tops.add(Math.round(rect.top));
      }
      return tops.size;
    };
    // A wrapper without a box of its own (display: contents) stands for its items.
    const items = [...inner.querySelectorAll<HTMLElement>('.navbar__items > *')]
      .flatMap((element) =>
        getComputedStyle(element).display === 'contents'
          ? [...(element.children as HTMLCollectionOf<HTMLElement>)]
          : [element],
      )
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const { top, bottom, right } = element.getBoundingClientRect();
        return { name: element.innerText.trim() || element.className, top, bottom, right, lines: lineCount(element) };
      });
    const box = navbar.getBoundingClientRect();
    const style = getComputedStyle(navbar);
    return {
      items,
      rowTop: box.top + Number.parseFloat(style.paddingTop),
      rowBottom: box.bottom - Number.parseFloat(style.paddingBottom),
      width: document.documentElement.clientWidth,
      title: title.innerText,
      titleCut: title.scrollWidth > title.clientWidth,
    };
  });
}

async function expectOneLine(site: DocsSite, width: number) {
  const layout = await navbarLayout(site);
  const context = JSON.stringify(layout);
  expect(layout.title, context).toBe('Acme Developer Handbook');
  expect(layout.titleCut, context).toBe(false);
  // One row, the navbar's own: every item inside its height, each on one line, the last one ending inside the window.
  for (const { name, top, bottom, lines } of layout.items) {
    const inRow = top >= layout.rowTop - 1 && bottom <= layout.rowBottom + 1;
    expect({ name, inRow, oneLine: lines <= 1 }, context).toEqual({ name, inRow: true, oneLine: true });
  }
  expect(Math.max(...layout.items.map((item) => item.right)), context).toBeLessThanOrEqual(width);
}

async function openAs(context: BrowserContext, baseUrl: string, email: string, width: number) {
  await signInContext(context, baseUrl, email);
  const site = new DocsSite(await context.newPage(), baseUrl);
  await site.page.setViewportSize({ width, height: 800 });
  const asked = site.page.waitForResponse((response) => response.url().endsWith('/api/me'));
  await site.open('/firestore-ttl');
  await asked;
  return site;
}

describe('the desktop navbar is one line with the whole title', () => {
  for (const width of [997, 1100, 1280]) {
    test(`for a reader at ${width} px`, async ({ browser, server }) => {
      const context = await browser.newContext();
      const site = await openAs(context, server.baseUrl, 'reader@acme.dev', width);
      await expect.poll(() => site.page.getByTestId('logout').isVisible()).toBe(true);
      expect(await site.page.getByTestId('insights-link').count()).toBe(0);
      await expectOneLine(site, width);
      await context.close();
    });

    test(`for a maintainer, with Insights, at ${width} px`, async ({ browser, server }) => {
      const context = await browser.newContext();
      const site = await openAs(context, server.baseUrl, maintainer, width);
      await site.page.getByTestId('insights-link').first().waitFor({ state: 'attached' });
      await expectOneLine(site, width);
      await context.close();
    });
  }
});

describe('the four top links where they do not fit side by side', () => {
  test('are one "Start here" menu away at 1100 px, by pointer and by keyboard', async ({ browser, server }) => {
    const context = await browser.newContext();
    const site = await openAs(context, server.baseUrl, 'reader@acme.dev', 1100);
    const menu = site.page.locator('.navbar__items .dropdown');
    const links = menu.locator('a.dropdown__link');
    await menu.getByRole('button', { name: 'Start here' }).hover();
    await expect.poll(() => links.first().isVisible()).toBe(true);
    const shown = await links.evaluateAll((anchors) =>
      anchors.map((anchor) => ({ label: anchor.textContent, path: decodeURI(anchor.getAttribute('href') ?? '') })),
    );
    expect(shown).toEqual(topNavigation.map(({ label, path }) => ({ label, path })));

    await site.page.mouse.move(0, 400);
    await menu.getByRole('button', { name: 'Start here' }).focus();
    await site.page.keyboard.press('Enter');
    await site.page.keyboard.press('Tab');
    expect(await site.page.evaluate(() => document.activeElement?.textContent)).toBe('Training Docs');
    await site.page.keyboard.press('Enter');
    await site.page.waitForURL(/\/getting_started\/$/, { waitUntil: 'commit' });
    await context.close();
  });
});
