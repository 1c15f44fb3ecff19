import { expect } from 'vitest';
import { startBeforeTests, startConversations, test } from './copilot-page-support';
import { focusedName } from './focus';

/** Keys, focus and room as a reader meets them: one Escape closes, focus never falls to the page, a phone's screen. */

startBeforeTests();

test("closes the chat with one Escape from an answer's Copy button, its tooltip shown", async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Copy').focus();
  await site.page.getByRole('tooltip', { name: 'Copy' }).waitFor();
  await site.page.keyboard.press('Escape');
  await expect.poll(() => copilot.popover.isVisible()).toBe(false);
  expect(await site.page.getByRole('tooltip').count()).toBe(0);
  expect(await copilot.launcher.evaluate((launcher) => launcher === document.activeElement)).toBe(true);
});

test('offers no rating, copy or read-aloud for an answer stopped before its first word, and keeps Refresh', async ({
  reader: { site, copilot },
}) => {
  let release = () => {};
  await site.page.route('**/api/turns', async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    await route.abort().catch(() => undefined);
  });
  await site.open('/');
  await copilot.open();
  await copilot.ask('A question that takes long');
  await copilot.stopButton.click();
  await copilot.waitForAnswer(1);
  await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
  for (const name of ['Good response', 'Bad response', 'Copy', 'Read aloud']) {
    expect(await copilot.action(0, name).count()).toBe(0);
  }
  expect(await copilot.action(0, 'Refresh').count()).toBe(1);
  release();
});

test('moves the focus to the next conversation after Archive on /dev-copilot, then to New conversation', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  // Each row says when its conversation was last active: today, so the time.
  const lastActive = list.row('WSL').getByTestId('thread-last-active');
  expect(Date.now() - Date.parse((await lastActive.getAttribute('datetime')) ?? '')).toBeLessThan(120_000);
  expect(await lastActive.innerText()).toMatch(/\d/);
  await list.row('WSL').getByRole('button', { name: 'Archive' }).focus();
  await site.page.keyboard.press('Enter');
  await expect.poll(() => list.archived.count()).toBe(1);
  await expect.poll(() => focusedName(site.page)).toContain('GitLab runner');

  await list.row('GitLab runner').getByRole('button', { name: 'Archive' }).focus();
  await site.page.keyboard.press('Enter');
  await expect.poll(() => list.archived.count()).toBe(2);
  await expect.poll(() => focusedName(site.page)).toBe('New conversation');
});

test('on a phone, folds the conversations behind one button so the conversation keeps the screen', async ({
  reader,
  list,
}) => {
  const { site, copilot } = reader;
  await startConversations(reader, list, [
    'How do I register a GitLab runner?',
    'How do I create a TTL policy?',
    'How do I use WSL?',
  ]);
  await site.page.setViewportSize({ width: 390, height: 844 });
  await site.page.reload();
  await copilot.waitForAnswer(1);
  const nav = site.page.getByTestId('thread-list');
  const folded = await nav.boundingBox();
  expect(folded?.height).toBeLessThan(844 * 0.12);
  expect(await list.regular.first().isVisible()).toBe(false);

  const toggle = nav.getByRole('button', { name: 'Conversations (3)' });
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  await list
    .row('TTL policy')
    .getByRole('button', { name: /TTL policy/ })
    .first()
    .click();
  await expect.poll(() => copilot.userMessages.first().innerText()).toContain('TTL policy');
  // Chosen: the list folds away again.
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  expect(await list.regular.first().isVisible()).toBe(false);
});

test("on a phone, the open menu is not covered by the assistant's button, which comes back once it closes", async ({
  reader: { site },
}) => {
  await site.page.setViewportSize({ width: 390, height: 844 });
  await site.open('/firestore-ttl');
  const launcher = site.page.getByTestId('copilot-launcher');
  await launcher.waitFor();

  await site.page.getByRole('button', { name: 'Toggle navigation bar' }).click();
  await site.page.locator('.navbar-sidebar').waitFor();
  await expect.poll(() => launcher.isVisible()).toBe(false);

  await site.page.getByRole('button', { name: 'Close navigation bar' }).click();
  await expect.poll(() => launcher.isVisible()).toBe(true);
});
