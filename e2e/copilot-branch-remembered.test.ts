import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** A conversation reopens on the branch the reader last looked at, as they left it (ChatGPT's habit too). */

startBeforeTests();

test('reopens on the earlier answer the reader went back to after a Refresh', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Refresh').click();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.branchState(copilot.lastAnswer).innerText()).toBe('2 / 2');

  await copilot.lastAnswer.getByRole('button', { name: 'Previous' }).click();
  await expect.poll(() => copilot.branchState(copilot.lastAnswer).innerText()).toBe('1 / 2');
  await copilot.waitUntilSaved();
  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(1);
  expect(await copilot.branchState(copilot.lastAnswer).innerText()).toBe('1 / 2');
});

test('reopens on the newest answer once the reader asks again after going back', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Refresh').click();
  await copilot.waitForAnswer(1);
  await copilot.lastAnswer.getByRole('button', { name: 'Previous' }).click();
  await expect.poll(() => copilot.branchState(copilot.lastAnswer).innerText()).toBe('1 / 2');
  await copilot.ask('How do I use WSL?');
  await copilot.waitForAnswer(2);
  await copilot.waitUntilSaved();
  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(2);
  expect(await copilot.userMessages.allInnerTexts()).toEqual([
    'How do I register a GitLab runner?',
    'How do I use WSL?',
  ]);
  expect(await copilot.branchState(copilot.answers.first()).innerText()).toBe('1 / 2');
});
