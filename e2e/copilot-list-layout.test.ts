import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, startConversations, test } from './copilot-page-support';

/** The conversation list at a laptop's width: each row's time on one line, its actions only where they are wanted. */

startBeforeTests();

/** How many lines an element's text takes. */
const lines = (element: Locator) =>
  element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });

/** The boxes of a row's time and actions (its title aside). */
const actionBoxes = (row: Locator) =>
  row.getByTestId('thread-last-active').evaluate((time) =>
    [...(time.parentElement?.children ?? [])].map((part) => {
      const { top, bottom, left, right } = part.getBoundingClientRect();
      return { text: part.textContent, top, bottom, left, right };
    }),
  );

/** The row's time and actions that reach past its padding, as their text. */
async function overflows(row: Locator) {
  const { left, right } = await row.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      left: box.left + Number.parseFloat(style.paddingLeft),
      right: box.right - Number.parseFloat(style.paddingRight),
    };
  });
  return (await actionBoxes(row)).filter((box) => box.left < left || box.right > right).map((box) => box.text);
}

/** Whether the row's time and actions sit on one line: every box overlaps every other vertically. */
async function onOneLine(row: Locator) {
  const boxes = await actionBoxes(row);
  return Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
}

/** Whether the row's Rename, Archive and Delete can be seen (drawn, not faded out). */
const actionsShown = (row: Locator) =>
  row
    .getByRole('button', { name: /^(Rename|Archive|Delete) / })
    .evaluateAll((buttons) => buttons.map((button) => getComputedStyle(button).opacity !== '0'));

test('keeps the time on one line and shows the row actions on hover, focus and the open row only', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  const row = list.row('WSL');
  const time = row.getByTestId('thread-last-active');
  // The widest labels a row's time gets: a time today, a weekday this week, a date of another year.
  for (const label of ['10:32 PM', 'Wednesday', 'Jan 30, 2025']) {
    await time.evaluate((node, text) => {
      node.textContent = text;
    }, label);
    expect(await lines(time)).toBe(1);
    expect(await overflows(row)).toEqual([]);
    expect(await onOneLine(row)).toBe(true);
  }

  await site.page.mouse.move(1000, 800);
  const other = list.row('GitLab runner');
  expect(await actionsShown(list.row('WSL'))).toEqual([true, true, true]);
  expect(await actionsShown(other)).toEqual([false, false, false]);

  await other.hover();
  expect(await actionsShown(other)).toEqual([true, true, true]);
  await site.page.mouse.move(1000, 800);
  expect(await actionsShown(other)).toEqual([false, false, false]);

  // The keyboard still reaches them: Tab from the row's title shows them.
  await other
    .getByRole('button', { name: /GitLab runner/ })
    .first()
    .focus();
  expect(await actionsShown(other)).toEqual([true, true, true]);
  await site.page.keyboard.press('Tab');
  expect(await site.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Rename /);
  expect(await actionsShown(other)).toEqual([true, true, true]);
});
