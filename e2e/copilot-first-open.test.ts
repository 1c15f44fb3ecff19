import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousAxeViolations, startBeforeTests, test } from './copilot-page-support';

/**
 * The first open of the chat on a page just loaded, before its code (assistant-ui, markdown) has arrived: the click
 * shows a composer that takes input at once, and nothing the reader types, attaches or sends in those moments is lost.
 */
test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });
startBeforeTests();

const question = 'How do I create a TTL policy for expireAt in Firestore?';

/** The page's idle time never fetches the chat ahead: the reader clicks before it would. */
async function keepIdleFetchAway(page: Page) {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
}

/** Holds every script asked for from now on (the chat's code) until the returned function is called. */
async function holdChatCode(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/js/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const focusedField = (page: Page) =>
  page.evaluate(() => {
    const field = document.activeElement;
    if (!(field instanceof HTMLTextAreaElement)) return null;
    return {
      real: field.closest('[data-testid="copilot-composer"]') !== null,
      caret: [field.selectionStart, field.selectionEnd],
    };
  });

test('takes what a reader types right after the click, and the real chat keeps it with the caret where it was', async ({
  reader: { site, copilot },
}) => {
  await keepIdleFetchAway(site.page);
  await site.open('/firestore-ttl');
  const release = await holdChatCode(site.page);
  await copilot.launcher.click();
  // Typed at once, with no wait: the light composer has the focus from the click on.
  await site.page.keyboard.type('TTL policy');
  await site.page.keyboard.press('Home');
  await site.page.keyboard.type('a ');
  expect(await copilot.shellComposer.getByRole('textbox').inputValue()).toBe('a TTL policy');
  expect(await site.page.getByTestId('copilot-loading').isVisible()).toBe(true);
  expect(await focusedField(site.page)).toEqual({ real: false, caret: [2, 2] });

  release();
  await copilot.realComposerInput.waitFor();
  expect(await copilot.shellComposer.count()).toBe(0);
  expect(await copilot.realComposerInput.inputValue()).toBe('a TTL policy');
  await expect.poll(() => focusedField(site.page)).toEqual({ real: true, caret: [2, 2] });
  await site.page.keyboard.type('new ');
  await site.page.keyboard.press('End');
  await site.page.keyboard.type(' for expireAt?');
  expect(await copilot.realComposerInput.inputValue()).toBe('a new TTL policy for expireAt?');
  await site.page.keyboard.press('Enter');
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.allInnerTexts()).toEqual(['a new TTL policy for expireAt?']);
});

test('asks a question sent before the code arrived, once, in the conversation the chat then shows', async ({
  reader: { site, copilot },
}) => {
  // A returning reader: the chat continues the latest conversation, so the question goes there.
  await copilot.askFirstOn(site, '/firestore-ttl', 'How do I use WSL?');
  await copilot.waitUntilSaved();

  await keepIdleFetchAway(site.page);
  await site.open('/firestore-ttl');
  const release = await holdChatCode(site.page);
  await copilot.launcher.click();
  await site.page.keyboard.type(question);
  await site.page.keyboard.press('Enter');
  const queued = site.page.getByTestId('copilot-queued-question');
  expect(await queued.innerText()).toBe(question);
  expect(await copilot.shellComposer.getByRole('textbox').inputValue()).toBe('');
  // Typing goes on while the question waits; only one question waits at a time.
  await site.page.keyboard.type('and then?');
  expect(await copilot.shellComposer.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

  release();
  await copilot.waitForAnswer(2);
  expect(await copilot.userMessages.allInnerTexts()).toEqual(['How do I use WSL?', question]);
  expect(await queued.count()).toBe(0);
  expect(await copilot.realComposerInput.inputValue()).toBe('and then?');
});

test('checks a file attached before the code arrived at once, and carries an image over to the real composer', async ({
  reader: { site, copilot },
}) => {
  await keepIdleFetchAway(site.page);
  await site.open('/');
  const png = await site.page.screenshot({ clip: { x: 0, y: 0, width: 200, height: 100 } });
  const release = await holdChatCode(site.page);
  await copilot.launcher.click();
  const attach = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = site.page.waitForEvent('filechooser');
    await copilot.shellComposer.getByRole('button', { name: 'Attach file' }).click();
    await (await chooser).setFiles([file]);
  };
  await attach({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not a picture') });
  expect(await copilot.attachmentError.innerText()).toContain('notes.png is not really an image');
  await attach({ name: 'shot.png', mimeType: 'image/png', buffer: png });
  await copilot.shellComposer.getByText('shot.png').waitFor();
  expect(await copilot.attachmentError.count()).toBe(0);
  await copilot.shellComposer.getByRole('textbox').fill('What does this screen show?');

  release();
  await site.page.getByRole('button', { name: 'Preview shot.png' }).waitFor();
  expect(await copilot.realComposerInput.inputValue()).toBe('What does this screen show?');
  await copilot.realComposerInput.press('Enter');
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.first().getByTestId('copilot-attachment').count()).toBe(1);
});

test('never shows an answer as raw markdown while the chat opens on a page loaded afresh', async ({
  reader: { site, copilot, context },
}) => {
  await copilot.askFirstOn(site, '/firestore-ttl', question);
  await copilot.waitUntilSaved();
  // The answer's links are markdown until rendered.
  expect(await copilot.lastAnswer.locator('a').count()).toBeGreaterThan(0);

  // Every text an answer ever shows while the chat opens, from its first frame on.
  await site.page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __answerTexts: seen });
    new MutationObserver(() => {
      for (const answer of document.querySelectorAll('[data-testid="copilot-assistant-message"]')) {
        seen.push(answer.textContent ?? '');
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const cdp = await context.newCDPSession(site.page);
  await cdp.send('Network.clearBrowserCache');
  await keepIdleFetchAway(site.page);
  await site.open('/firestore-ttl');
  await copilot.open();
  await copilot.waitForAnswer(1);
  const seen = await site.page.evaluate(() => (window as unknown as { __answerTexts: string[] }).__answerTexts);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((text) => /\]\(|\*\*|```/.test(text))).toEqual([]);
});

test('the light chat has no serious axe-core violations, light and dark, and closes with Escape', async ({
  reader: { site, copilot },
}) => {
  await keepIdleFetchAway(site.page);
  await site.open('/');
  const release = await holdChatCode(site.page);
  await copilot.launcher.click();
  await copilot.shellComposer.waitFor();
  expect(await copilot.launcher.getAttribute('aria-expanded')).toBe('true');
  expect(await seriousAxeViolations(site.page, '[data-testid="copilot-popover"]')).toEqual([]);
  await site.page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => site.theme()).toBe('dark');
  expect(await seriousAxeViolations(site.page, '[data-testid="copilot-popover"]')).toEqual([]);

  await site.page.keyboard.type('kept for later');
  await site.page.keyboard.press('Escape');
  await copilot.popover.waitFor({ state: 'detached' });
  expect(await copilot.launcher.evaluate((launcher) => launcher === document.activeElement)).toBe(true);
  release();
  // The real chat's button replaces this one when the code arrives, and keeps the focus.
  await site.page.waitForFunction(() => document.activeElement?.getAttribute('aria-haspopup') === 'dialog');
  expect(await copilot.launcher.evaluate((launcher) => launcher === document.activeElement)).toBe(true);
  await copilot.open();
  expect(await copilot.realComposerInput.inputValue()).toBe('kept for later');
});
