import { describe, expect } from 'vitest';
import { test } from './fixtures';

/** In Chromium: results that leave a typed word out say which, as search engines say "Missing:". */
describe('words no result holds', () => {
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
});
