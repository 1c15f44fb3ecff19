import { describe, expect } from 'vitest';
import { test } from './fixtures';

/**
 * In Chromium: results that leave a typed word out say which, as search engines say "Missing:"; results for a corrected
 * typo say what was searched for ("Showing results for").
 */
describe('words no result holds, and typos read as other words', () => {
  test('are named under the box and on the results page, but not the word still being typed', async ({ docsSite }) => {
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
