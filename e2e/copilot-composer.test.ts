import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { holdRequests } from './held-requests';

/** Writing a question, stopping an answer, and what a reader can do with an answer once it is there. */
test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

describe('composer', () => {
  test('sends on Enter, adds a line on Shift+Enter, and keeps Send disabled while empty', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/');
    await copilot.open();
    expect(await copilot.sendButton.isDisabled()).toBe(true);
    await copilot.composerInput.pressSequentially('first line');
    await copilot.composerInput.press('Shift+Enter');
    await copilot.composerInput.pressSequentially('second line');
    expect(await copilot.composerInput.inputValue()).toBe('first line\nsecond line');
    expect(await copilot.userMessages.count()).toBe(0);
    expect(await copilot.sendButton.isDisabled()).toBe(false);
    await copilot.composerInput.press('Enter');
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toBe('first line\nsecond line');
    expect(await copilot.composerInput.inputValue()).toBe('');
  });

  test('holds a question written while the stored conversation loads, and asks it once, when that is in', async ({
    reader: { site, copilot },
  }) => {
    // Listing the reader's conversations is held; creating one is not.
    const release = await holdRequests(site.page, '**/api/threads', 'GET');
    await site.open('/');
    await copilot.launcher.click();
    // The light composer takes the question; the real one, which could send it to the wrong conversation, is not
    // there until the reader's conversations are listed.
    await copilot.shellComposer.waitFor();
    await copilot.composerInput.fill('How do I use WSL?');
    await copilot.composerInput.press('Enter');
    await site.page.getByTestId('copilot-queued-question').waitFor();
    expect(await copilot.realComposerInput.count()).toBe(0);
    expect(await copilot.userMessages.count()).toBe(0);
    release();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.allInnerTexts()).toEqual(['How do I use WSL?']);
  });

  test('ignores Enter while an input method is composing a word', async ({ reader: { site, copilot } }) => {
    await site.open('/');
    await copilot.open();
    await copilot.composerInput.fill('日本語');
    // Enter that confirms an IME candidate arrives as a keydown with isComposing set; it must not send.
    await copilot.composerInput.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true });
    await copilot.composerInput.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 229 });
    expect(await copilot.userMessages.count()).toBe(0);
    expect(await copilot.composerInput.inputValue()).toBe('日本語');
    await copilot.composerInput.press('Enter');
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toBe('日本語');
  });

  test('Stop and Escape end a held run, say so, and the composer works again', async ({
    reader: { site, copilot },
  }) => {
    // Hold the answer open (the docs-only answer is too quick to stop by hand): a client test of cancelling.
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
    await copilot.stopButton.waitFor();
    expect(await copilot.sendButton.count()).toBe(0);
    await copilot.stopButton.click();
    await copilot.waitForAnswer(1);
    expect(await copilot.lastAnswer.getByTestId('copilot-cancelled').innerText()).toContain('stopped');

    await copilot.ask('Another long one');
    await copilot.stopButton.waitFor();
    await copilot.composerInput.press('Escape');
    await copilot.waitForAnswer(2);
    expect(await copilot.answers.nth(1).getByTestId('copilot-cancelled').count()).toBe(1);
    expect(await copilot.popover.isVisible()).toBe(true);
    release();

    await site.page.unroute('**/api/turns');
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(3);
    expect(await copilot.answers.nth(2).getAttribute('data-status')).toBe('complete');
  });
});

describe('actions on an answer', () => {
  test('Copy puts the answer on the clipboard and shows the copied state', async ({
    reader: { site, copilot, context },
    server,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await copilot.askFirstOn(site, '/', 'How do I create a TTL policy for expireAt in Firestore?');
    const copy = copilot.action(0, 'Copy');
    await copy.click();
    await expect.poll(() => copy.getAttribute('data-copied')).toBe('true');
    const clipboard = await site.page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain('Firestore TTL');
    expect(clipboard).not.toContain('Sources');
    // The copied state reverts after 3000 ms.
    await expect.poll(() => copy.getAttribute('data-copied'), { timeout: 5000 }).toBeNull();
  });

  test('keeps Good and Bad response (with its reason) after a reload', async ({ reader: { site, copilot } }) => {
    await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
    await copilot.action(0, 'Bad response').click();
    await site.page.getByTestId('feedback-reason').getByRole('textbox').fill('It skipped the token step');
    await site.page.getByTestId('feedback-reason').getByRole('button', { name: 'Send reason' }).click();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(2);
    await copilot.action(1, 'Good response').click();
    await expect.poll(() => copilot.action(1, 'Good response').getAttribute('aria-pressed')).toBe('true');

    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(2);
    expect(await copilot.action(0, 'Bad response').getAttribute('aria-pressed')).toBe('true');
    expect(await copilot.action(0, 'Good response').getAttribute('aria-pressed')).toBe('false');
    expect(await copilot.action(1, 'Good response').getAttribute('aria-pressed')).toBe('true');
    // The reason was kept with the rating, so it is not asked for again.
    expect(await site.page.getByTestId('feedback-reason').count()).toBe(0);
    expect(await copilot.answers.first().innerText()).toContain('Thanks, the docs team will see your reason.');
  });

  test('edits a question into branch 2/2, switches back to 1/2, and Refresh makes a new answer branch', async ({
    reader: { site, copilot },
  }) => {
    await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
    await copilot.editQuestion(0, 'How do I use WSL?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => copilot.branchState(copilot.userMessages.first()).innerText()).toBe('2 / 2');
    expect(await copilot.userMessages.first().innerText()).toContain('How do I use WSL?');

    await copilot.userMessages.first().getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => copilot.branchState(copilot.userMessages.first()).innerText()).toBe('1 / 2');
    expect(await copilot.userMessages.first().innerText()).toContain('GitLab runner');

    await copilot.action(0, 'Refresh').click();
    await copilot.waitForAnswer(1);
    await expect.poll(() => copilot.branchState(copilot.lastAnswer).innerText()).toBe('2 / 2');

    // The branches are stored: after a reload the same tree comes back.
    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.branchState(copilot.lastAnswer).innerText()).toBe('2 / 2');
    expect(await copilot.branchState(copilot.userMessages.first()).innerText()).toBe('1 / 2');
  });
});
