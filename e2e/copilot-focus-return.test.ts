import { expect } from 'vitest';
import { startBeforeTests, startConversations, test } from './copilot-page-support';
import { focusedName } from './focus';

/** A control that closes what a button opened gives the focus back to that button: it never falls to the page. */

startBeforeTests();

test('gives the focus back to Rename after a rename is saved with Enter or left with Escape', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  await list.row('GitLab runner').getByRole('button', { name: 'Rename' }).click();
  const title = site.page.getByRole('textbox', { name: 'New title' });
  await title.fill('Runner setup');
  await title.press('Enter');
  await expect.poll(() => focusedName(site.page)).toBe('Rename Runner setup');

  await site.page.keyboard.press('Enter');
  await title.fill('Something else');
  await title.press('Escape');
  await expect.poll(() => focusedName(site.page)).toBe('Rename Runner setup');
  expect(await list.row('Runner setup').count()).toBe(1);
});

test('gives the focus back to Delete when the reader keeps the conversation', async ({ reader, list }) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  await list.row('GitLab runner').getByRole('button', { name: 'Delete' }).focus();
  await site.page.keyboard.press('Enter');
  await expect.poll(() => focusedName(site.page)).toBe('Keep');
  await site.page.keyboard.press('Enter');
  await expect.poll(() => focusedName(site.page)).toContain('Delete How do I register a GitLab runner');
  expect(await list.regular.count()).toBe(2);
});

test('moves the focus to the thanks once a reason for a bad rating is sent', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Bad response').click();
  const reason = site.page.getByTestId('feedback-reason');
  await reason.getByRole('textbox').fill('It skipped the token step');
  await reason.getByRole('button', { name: 'Send reason' }).click();
  await expect.poll(() => focusedName(site.page)).toBe('Thanks, the docs team will see your reason.');
});

test('takes the reader into the reason field with Bad response, so what they type next is the reason', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Bad response').click();
  const reason = site.page.getByTestId('feedback-reason');
  await reason.waitFor();
  await site.page.keyboard.type('It skipped the token step');
  expect(await reason.getByRole('textbox').inputValue()).toBe('It skipped the token step');
  await site.page.keyboard.press('Enter');
  await expect.poll(() => focusedName(site.page)).toBe('Thanks, the docs team will see your reason.');
});

test('leaves the focus in the composer when a conversation opens with a bad rating still waiting for its reason', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Bad response').click();
  await copilot.waitUntilSaved();
  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(1);
  await site.page.getByTestId('feedback-reason').waitFor();
  await expect.poll(() => focusedName(site.page)).toBe('Message Dev Copilot');
});
