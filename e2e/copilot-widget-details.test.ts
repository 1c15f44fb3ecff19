import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';
import { holdRequests } from './held-requests';

/** The chat's small things a reader trips over: buttons that read as buttons, keys that do one thing, feedback. */

startBeforeTests();

test('draws the scroll-to-bottom button as a button, not a bare arrow over the text', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/firestore-ttl', 'How do I create a TTL policy for expireAt in Firestore?');
  await site.page.getByTestId('copilot-viewport').evaluate((viewport) => viewport.scrollTo({ top: 0 }));
  // Located by its label, not its role: at the bottom it is hidden, from screen readers too.
  const button = copilot.popover.locator('button[aria-label="Scroll to bottom"]');
  await expect.poll(() => button.isEnabled()).toBe(true);
  const look = await button.evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, border: style.borderTopWidth, shadow: style.boxShadow };
  });
  expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
  expect(look.border).not.toBe('0px');
  expect(look.shadow).not.toBe('none');
  await button.click();
  await expect.poll(() => button.isDisabled()).toBe(true);
});

test('shows the whole composer above the fold on /dev-copilot, at 1280 x 900 and on a phone', async ({
  reader: { site, copilot },
}) => {
  await site.open('/dev-copilot');
  // An answer with a long code line, which must scroll in its block, not widen the page on a phone.
  await copilot.ask('How do I create a TTL policy for expireAt in Firestore?');
  await copilot.waitForAnswer(1);
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await site.page.setViewportSize(viewport);
    await site.open('/dev-copilot');
    await site.announcementBar.waitFor();
    await copilot.composerInput.waitFor();
    await copilot.waitForAnswer(1);
    const composer = await site.page.getByTestId('copilot-composer').boundingBox();
    expect(composer && composer.y + composer.height).toBeLessThanOrEqual(viewport.height);
    expect(await site.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  }
  // Without the announcement bar the page grows into its room.
  await site.announcementBar.getByRole('button', { name: /close/i }).click();
  await expect
    .poll(async () => {
      const composer = await site.page.getByTestId('copilot-composer').boundingBox();
      return composer ? 844 - (composer.y + composer.height) : Number.NaN;
    })
    .toBeLessThan(40);
});

test('closes the image preview with one Escape', async ({ reader: { site, copilot } }) => {
  await site.open('/');
  await copilot.open();
  const chooser = site.page.waitForEvent('filechooser');
  await site.page.getByRole('button', { name: 'Attach file' }).click();
  const png = await site.page.screenshot({ clip: { x: 0, y: 0, width: 200, height: 100 } });
  await (await chooser).setFiles([{ name: 'shot.png', mimeType: 'image/png', buffer: png }]);
  await site.page.getByRole('button', { name: 'Preview shot.png' }).click();
  const dialog = site.page.getByTestId('attachment-preview');
  await dialog.getByRole('img', { name: 'shot.png' }).waitFor();
  await site.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 2000 });
  // The chat itself is still open.
  await copilot.composerInput.waitFor();
});

test('does nothing on Enter while an answer is running', async ({ reader: { site, copilot } }) => {
  const release = await holdRequests(site.page, '**/api/turns');
  await site.open('/');
  await copilot.open();
  await copilot.ask('How do I register a GitLab runner?');
  await copilot.stopButton.waitFor();
  await copilot.composerInput.pressSequentially('And on Windows?');
  await copilot.composerInput.press('Enter');
  expect(await copilot.composerInput.inputValue()).toBe('And on Windows?');
  expect(await copilot.userMessages.count()).toBe(1);
  release();
  await copilot.waitForAnswer(1);
  await copilot.composerInput.press('Enter');
  await expect.poll(() => copilot.userMessages.count()).toBe(2);
  expect(await copilot.userMessages.nth(1).innerText()).toBe('And on Windows?');
});

test('confirms a copy in words, on screen and to screen readers', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  const notice = copilot.lastAnswer.getByRole('status').filter({ hasText: 'Copied' });
  expect(await notice.count()).toBe(0);
  await copilot.action(0, 'Copy').click();
  await notice.waitFor();
  expect(await notice.isVisible()).toBe(true);
  // It goes with the copied state (3000 ms).
  await notice.waitFor({ state: 'detached', timeout: 5000 });
});

test('draws one focus ring around the composer, none inside it', async ({ reader: { site, copilot } }) => {
  await site.open('/');
  await copilot.open();
  await copilot.composerInput.focus();
  const rings = await site.page.getByTestId('copilot-composer').evaluate((composer) => {
    const input = composer.querySelector('textarea') as HTMLTextAreaElement;
    const ring = (element: Element) => {
      const style = getComputedStyle(element);
      return style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
    };
    return { input: ring(input), composer: ring(composer) };
  });
  expect(rings).toEqual({ input: false, composer: true });
});

test('cancels an edit on Escape and keeps the chat open', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  const question = copilot.userMessages.first();
  await question.hover();
  await question.getByRole('button', { name: 'Edit' }).click();
  const edit = site.page.getByTestId('copilot-edit-composer');
  await edit.getByRole('textbox').fill('How do I use WSL?');
  await edit.getByRole('textbox').press('Escape');
  await expect.poll(() => edit.count()).toBe(0);
  expect(await copilot.popover.isVisible()).toBe(true);
  expect(await copilot.userMessages.first().innerText()).toContain('GitLab runner');
  // With nothing being edited, Escape closes the chat as before.
  await copilot.composerInput.press('Escape');
  await expect.poll(() => copilot.popover.isVisible()).toBe(false);
});

test('says in words when the handbook cannot be reached, not "Failed to fetch"', async ({
  reader: { site, copilot },
}) => {
  await site.page.route('**/api/turns', (route) => route.abort('internetdisconnected'));
  await site.open('/');
  await copilot.open();
  await copilot.ask('How do I register a GitLab runner?');
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.lastAnswer.innerText()).toContain("could not reach the handbook's server");
  expect(await copilot.lastAnswer.innerText()).not.toContain('Failed to fetch');
});

test('on a phone, following a link of an answer shows the page it leads to', async ({ reader: { site, copilot } }) => {
  await site.page.setViewportSize({ width: 390, height: 844 });
  await copilot.askFirstOn(site, '/', 'How do I create a TTL policy on a Firestore collection?');
  const link = copilot.lastAnswer.locator('a[href^="/"]').first();
  const target = new URL((await link.getAttribute('href')) ?? '/', site.page.url());
  await link.click();
  await site.page.waitForURL((url) => url.pathname === target.pathname);
  await expect.poll(() => copilot.popover.isVisible()).toBe(false);
  // The conversation is still there behind the button.
  await copilot.launcher.click();
  await copilot.waitForAnswer(1);
});

test('while a new chat is being created, says so and keeps Enter from sending a second question', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  const release = await holdRequests(site.page, '**/api/threads', 'POST');
  await copilot.ask('How do I register a GitLab runner?');
  await copilot.popover.getByRole('status').filter({ hasText: 'Starting the conversation' }).waitFor();
  await copilot.composerInput.fill('And on Windows?');
  await copilot.composerInput.press('Enter');
  expect(await copilot.composerInput.inputValue()).toBe('And on Windows?');
  expect(await copilot.userMessages.count()).toBe(1);

  release();
  await copilot.waitForAnswer(1);
  await copilot.composerInput.press('Enter');
  await copilot.waitForAnswer(2);
  expect(await copilot.userMessages.allInnerTexts()).toEqual([
    expect.stringContaining('GitLab runner'),
    'And on Windows?',
  ]);
});
