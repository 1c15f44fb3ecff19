import { expect } from 'vitest';
import { test } from './fixtures';

/**
 * A search refused for a reason of its own (the reader's searches per minute) still offers to ask Dev Copilot, whose
 * limits are separate: in the navbar box and on the /search page.
 */
test.override({
  serverEnvironment: { SEARCH_REQUESTS_PER_MINUTE: '1', LOG_LEVEL: 'silent' },
  readerEmail: 'fast.typist@acme.dev',
});

test('offers Ask Dev Copilot beside the rate limit message, and asks the query', async ({
  reader: { site, copilot },
}) => {
  await site.open('/faqs/');
  await site.search('ttl');
  await expect.poll(() => site.searchDropdown.innerText()).toContain('TTL');
  // The one search of the minute is spent: the next query is refused by the search's own limit.
  await site.page.keyboard.type(' deletes');
  await expect.poll(() => site.searchDropdown.innerText()).toContain('Too many searches');
  await site.page.getByTestId('ask-copilot-from-search').click();
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual(['ttl deletes']);
  expect(await copilot.lastAnswer.innerText()).toMatch(/TTL/);

  await site.open('/search?q=firestore%20ttl');
  await site.page.getByRole('alert').filter({ hasText: 'Too many searches' }).waitFor();
  expect(await site.page.getByTestId('ask-copilot-from-search').count()).toBe(1);
});
