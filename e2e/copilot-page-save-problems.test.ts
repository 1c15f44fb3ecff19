import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, startConversations, test } from './copilot-page-support';

/**
 * What the reader is told when the server refuses a change the widget showed at once (a rating, a rename, an archive
 * or a delete), and what the list shows then: the conversation as the server still has it.
 */

startBeforeTests();

/**
 * Makes the server (as the browser sees it) refuse `method` calls to `url` as if its database were down. The refusal
 * takes a moment, as a real one does, so the widget has acted on the change by the time it arrives.
 */
function refuse(page: Page, url: string, method: string) {
  return page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal:threads', message: 'The database is unavailable.' } }),
    });
  });
}

/** The notice says why the change was not saved; Dismiss takes it away. */
async function expectProblemToldAndDismiss(page: Page) {
  const problem = page.getByTestId('copilot-save-problem');
  await expect.poll(() => problem.innerText()).toBe('This change could not be saved (The database is unavailable.).');
  await problem.getByRole('button', { name: 'Dismiss' }).click();
  await problem.waitFor({ state: 'detached' });
}

test('tells the reader when a rating could not be saved', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await refuse(site.page, '**/api/messages/*/feedback', 'PUT');
  await copilot.action(0, 'Good response').click();
  await expectProblemToldAndDismiss(site.page);
});

test('tells the reader when a rename could not be saved, and shows the title the server kept', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I use WSL?']);
  await refuse(site.page, '**/api/threads/*', 'PATCH');

  await list.row('WSL').getByRole('button', { name: 'Rename' }).click();
  await site.page.getByRole('textbox', { name: 'New title' }).fill('Windows setup');
  await site.page.getByRole('button', { name: 'Save' }).click();
  await expectProblemToldAndDismiss(site.page);
  await expect.poll(() => list.regular.allInnerTexts()).toEqual([expect.stringContaining('How do I use WSL?')]);
});

test('puts a conversation back, and keeps the reader in it, when archiving or deleting it fails', async ({
  reader,
  list,
}) => {
  const { site, copilot } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  await expect.poll(() => list.current.innerText()).toContain('WSL');
  const bothListed = [expect.stringContaining('WSL'), expect.stringContaining('GitLab runner')];
  await refuse(site.page, '**/api/threads/*', 'PATCH');
  await refuse(site.page, '**/api/threads/*', 'DELETE');

  // Another conversation: it comes back to the regular list, no archived section appears.
  await list.row('GitLab runner').getByRole('button', { name: 'Archive' }).click();
  await expectProblemToldAndDismiss(site.page);
  await expect.poll(() => list.regular.allInnerTexts()).toEqual(bothListed);
  expect(await site.page.getByText('Archived (').count()).toBe(0);

  // The open one: it comes back, and the reader is still in it.
  for (const leave of ['archive', 'delete'] as const) {
    if (leave === 'archive') await list.row('WSL').getByRole('button', { name: 'Archive' }).click();
    else await list.delete('WSL');
    await expectProblemToldAndDismiss(site.page);
    await expect.poll(() => list.regular.allInnerTexts(), { message: leave }).toEqual(bothListed);
    await expect.poll(() => list.current.innerText(), { message: leave }).toContain('WSL');
    expect(await copilot.userMessages.allInnerTexts(), leave).toEqual([expect.stringContaining('WSL')]);
  }
});
