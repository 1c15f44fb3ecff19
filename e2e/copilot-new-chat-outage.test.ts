import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/**
 * A new chat's first question when the server cannot create the conversation (it cannot be reached): the reader is
 * told why, as in an existing chat, and the question is not lost.
 */

startBeforeTests();

/** Refuses the conversation's creation as a server that is down would (POST /api/threads); listing still works. */
const refuseNewConversations = (page: Page) =>
  page.route('**/api/threads', (route) =>
    route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue(),
  );

test('says the server cannot be reached, keeps the question in the composer, and Retry asks it', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  await refuseNewConversations(site.page);
  await copilot.ask('How do I register a GitLab runner?');
  const problem = copilot.popover.getByTestId('copilot-start-problem');
  await problem.waitFor();
  expect(await problem.innerText()).toContain(
    "Dev Copilot could not reach the handbook's server. Check your connection, then try again.",
  );
  expect(await copilot.composerInput.inputValue()).toBe('How do I register a GitLab runner?');
  expect(await copilot.userMessages.count()).toBe(0);

  await site.page.unroute('**/api/threads');
  await problem.getByRole('button', { name: 'Retry' }).click();
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.allInnerTexts()).toEqual([expect.stringContaining('GitLab runner')]);
  expect(await problem.count()).toBe(0);
  expect(await copilot.composerInput.inputValue()).toBe('');
});

test('after New conversation, a refused start says so too, and Enter asks again once the server is back', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.popover.getByRole('button', { name: 'New conversation' }).click();
  await copilot.welcome.waitFor();
  await refuseNewConversations(site.page);
  await copilot.ask('How do I use WSL?');
  const problem = copilot.popover.getByTestId('copilot-start-problem');
  await problem.waitFor();
  expect(await problem.getAttribute('role')).toBe('alert');
  expect(await copilot.composerInput.inputValue()).toBe('How do I use WSL?');

  await site.page.unroute('**/api/threads');
  await copilot.composerInput.press('Enter');
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.allInnerTexts()).toEqual([expect.stringContaining('WSL')]);
  expect(await problem.count()).toBe(0);
});

test('a question handed over by the search keeps its words in the composer when its conversation cannot start', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await refuseNewConversations(site.page);
  const question = 'qwxzvbnmplk zzyzx';
  await site.search(question);
  await site.page.getByTestId('ask-copilot-from-search').click();
  const problem = copilot.popover.getByTestId('copilot-start-problem');
  await problem.waitFor();
  await expect.poll(() => copilot.composerInput.inputValue()).toBe(question);

  await site.page.unroute('**/api/threads');
  await problem.getByRole('button', { name: 'Retry' }).click();
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.allInnerTexts()).toEqual([question]);
});
