import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** The navbar search's suggestions show above the open chat, as DocSearch's and kapa.ai's search do. */

startBeforeTests();

test('the suggestions are above the open chat where it lies under them, and a click there opens the hit', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  await site.search('tunnel');
  await site.suggestions.first().waitFor();
  // The middle of each shown part of a suggestion the chat lies under, and what the reader's pointer meets there.
  const covered = await site.page.evaluate(() => {
    const chat = document.querySelector('[data-testid="copilot-popover"]')?.getBoundingClientRect();
    const dropdown = document.querySelector('[data-testid="search-dropdown"]')?.getBoundingClientRect();
    if (!chat || !dropdown) throw new Error('the chat or the suggestions are not open');
    return [...document.querySelectorAll('[role="listbox"] [role="option"]')].flatMap((option) => {
      const box = option.getBoundingClientRect();
      const left = Math.max(box.left, chat.left, dropdown.left);
      const right = Math.min(box.right, chat.right, dropdown.right);
      const top = Math.max(box.top, chat.top, dropdown.top);
      const bottom = Math.min(box.bottom, chat.bottom, dropdown.bottom);
      if (left >= right || top >= bottom) return [];
      const x = (left + right) / 2;
      const y = (top + bottom) / 2;
      return [{ x, y, reached: option.contains(document.elementFromPoint(x, y)) }];
    });
  });
  expect(covered.length).toBeGreaterThan(0);
  expect(covered.map(({ reached }) => reached)).toEqual(covered.map(() => true));

  const [first] = covered;
  if (!first) throw new Error('no suggestion under the chat');
  const before = site.page.url();
  await site.page.mouse.click(first.x, first.y);
  await expect.poll(() => site.page.url()).not.toBe(before);
});

test('Escape in the search closes the suggestions and leaves the chat open', async ({ reader: { site, copilot } }) => {
  await site.open('/');
  await copilot.open();
  await site.search('deploy');
  await site.suggestions.first().waitFor();
  await site.page.keyboard.press('Escape');
  await site.searchDropdown.waitFor({ state: 'detached' });
  expect(await copilot.popover.isVisible()).toBe(true);
});
