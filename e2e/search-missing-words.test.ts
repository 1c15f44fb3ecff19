import type { Locator } from 'playwright-core';
import { describe, expect } from 'vitest';
import { test } from './fixtures';

/**
 * In Chromium: results that leave a typed word out say which, as search engines say "Missing:"; results for a corrected
 * typo say what was searched for ("Showing results for").
 */

/** Whether, inside `container`, the first element `first` selects comes before the first one `second` selects. */
const comesBefore = (container: Locator, first: string, second: string) =>
  container.evaluate(
    (element, [a, b]) => {
      const [one, other] = [element.querySelector(a as string), element.querySelector(b as string)];
      return Boolean(one && other && one.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING);
    },
    [first, second],
  );

// The file's server, session and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ sessionCookie, browser }) => {
  expect(sessionCookie).toContain('acme_session=');
  expect(browser.isConnected()).toBe(true);
});

describe('words no result holds, and typos read as other words', () => {
  test("are named in the box and above the results page's results, but not the word still being typed", async ({
    docsSite,
  }) => {
    await docsSite.open('/');
    await docsSite.search('terraform state');
    await docsSite.suggestions.first().waitFor();
    // "terraform" is missing; "state", the word still being typed, is found.
    await expect
      .poll(async () => docsSite.searchDropdown.getByTestId('search-missing').innerText())
      .toBe('No page mentions “terraform”; these results match the rest.');
    await docsSite.searchInput.fill('state terraform');
    await docsSite.suggestions.first().waitFor();
    // Now "terraform" is the word being typed: not named until it is whole.
    await expect.poll(async () => docsSite.searchDropdown.getByTestId('search-missing').count()).toBe(0);

    await docsSite.open('/search?q=terraform kubernetes state');
    await expect
      .poll(async () => docsSite.page.getByTestId('search-missing').innerText())
      .toBe('No page mentions “terraform” or “kubernetes”; these results match the rest.');
    expect(await docsSite.page.getByTestId('search-result').count()).toBeGreaterThan(0);
    expect(await comesBefore(docsSite.page.locator('main'), '[data-testid="search-missing"]', 'article')).toBe(true);
  });

  test('are named above the suggestions, under the corrected query, seen without scrolling the dropdown', async ({
    docsSite,
  }) => {
    // Low enough for eight suggestions to scroll in the dropdown.
    await docsSite.page.setViewportSize({ width: 1280, height: 700 });
    await docsSite.open('/');
    await docsSite.search('vacation firestre ');
    await expect.poll(() => docsSite.suggestions.count()).toBe(8);
    const notice = docsSite.searchDropdown.getByTestId('search-missing');
    await expect
      .poll(async () => notice.innerText())
      .toBe('No page mentions “vacation”; these results match the rest.');
    const dropdown = docsSite.searchDropdown;
    expect(await dropdown.getByTestId('search-corrected').innerText()).toBe('Showing results for vacation firestore');
    expect(await comesBefore(dropdown, '[data-testid="search-corrected"]', '[data-testid="search-missing"]')).toBe(
      true,
    );
    expect(await comesBefore(dropdown, '[data-testid="search-missing"]', '[role="option"]')).toBe(true);
    const seen = await dropdown.evaluate((box) => {
      const { top, bottom } = (box.querySelector('[data-testid="search-missing"]') as Element).getBoundingClientRect();
      const shown = box.getBoundingClientRect();
      return {
        scrolls: box.scrollHeight > box.clientHeight,
        scrolled: box.scrollTop,
        inView: top >= shown.top && bottom <= shown.bottom,
      };
    });
    expect(seen).toEqual({ scrolls: true, scrolled: 0, inView: true });
  });

  test('a corrected typo is shown as searched for, above the results, once the word is typed whole', async ({
    docsSite,
  }) => {
    await docsSite.open('/');
    await docsSite.search('Onbording chekclist ');
    await docsSite.suggestions.first().waitFor();
    const corrected = docsSite.searchDropdown.getByTestId('search-corrected');
    await expect.poll(async () => corrected.innerText()).toBe('Showing results for onboarding checklist');
    expect(await corrected.locator('strong').allInnerTexts()).toEqual(['onboarding', 'checklist']);
    // A screen reader hears it with the count of suggestions.
    const heard = docsSite.page.locator('[aria-live="polite"]', { hasText: /suggestions? for onboarding checklist$/ });
    await expect.poll(async () => heard.count()).toBe(1);
    // The word still being typed is not a typo yet.
    await docsSite.searchInput.fill('firestore onbordin');
    await docsSite.suggestions.first().waitFor();
    await expect.poll(async () => corrected.count()).toBe(0);

    await docsSite.open('/search?q=firestre ttl');
    await expect
      .poll(async () => docsSite.page.getByTestId('search-corrected').innerText())
      .toBe('Showing results for firestore ttl');
  });
});
