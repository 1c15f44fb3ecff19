import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store } from '../server/src/store/database.js';
import { launchBrowser, siteBuildDirectory, startServer, type TestServer } from './harness';
import { type Copilot, openReader } from './pages/copilot';
import type { DocsSite } from './pages/docs-site';

let store: Store;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let site: DocsSite;
let copilot: Copilot;
let readers = 0;

beforeAll(async () => {
  // Our own store, so a test can restart the server over the same data.
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
  server = await startServer({ ASK_REQUESTS_PER_MINUTE: '1000' }, { store });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await store?.close();
});
beforeEach(async () => {
  ({ context, site, copilot } = await openReader(browser, server.baseUrl, `reader${++readers}@acme.dev`));
});
afterEach(async () => {
  await context.close();
  expect(site.policyViolations).toEqual([]);
});

/** Whether a built script holds the chat's code (the composer's placeholder is a string only the chat has). */
const isChatChunk = (script: string) =>
  readFileSync(path.join(siteBuildDirectory, script), 'utf8').includes('Write a message...');

describe('the floating assistant', () => {
  it('is not in the first paint of a doc page; its chunk loads when the reader opens it', async () => {
    const scripts: string[] = [];
    site.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await site.open('/firestore-ttl');
    await site.page.waitForLoadState('networkidle');
    const firstPaint = [...scripts];
    expect(firstPaint.length).toBeGreaterThan(0);
    expect(firstPaint.filter(isChatChunk)).toEqual([]);
    await copilot.open();
    expect(scripts.slice(firstPaint.length).some(isChatChunk)).toBe(true);
  });

  it('greets with the avatar, the introduction and suggestions, one of them about the page', async () => {
    await site.open('/firestore-ttl');
    await copilot.open();
    const welcome = await copilot.welcome.innerText();
    expect(welcome).toContain("the team's development copilot");
    expect(welcome).toContain('Acme app development');
    expect(welcome).toContain('How can I help you today?');
    expect(await copilot.welcome.locator('button').count()).toBeGreaterThanOrEqual(3);
    await copilot.welcome.getByRole('button', { name: 'Ask about this page' }).click();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('Firestore TTL');
    expect(await copilot.lastAnswer.getByTestId('copilot-sources').innerText()).toContain('Firestore TTL');
  });

  it('streams a docs-only answer whose sources open the exact section', async () => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I create a TTL policy for expireAt in Firestore?');
    await copilot.waitForAnswer(1);
    expect(await copilot.lastAnswer.innerText()).toContain('Firestore TTL');
    const source = copilot.lastAnswer.getByTestId('copilot-sources').getByRole('link').first();
    const href = (await source.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/firestore-ttl#[\w-]+$/);
    await source.click();
    await site.page.waitForURL(`**${href}`);
    const anchor = href.split('#')[1] ?? '';
    // The URL changes before the new page is rendered (its code may still be loading).
    await expect.poll(() => site.page.locator(`[id="${anchor}"]`).count()).toBe(1);
    // Client-side navigation keeps the conversation open.
    expect(await copilot.popover.isVisible()).toBe(true);
  });

  it('keeps the conversation across a reload and a server restart', async () => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    const answer = await copilot.lastAnswer.innerText();

    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('How do I register a GitLab runner?');
    expect(await copilot.lastAnswer.innerText()).toBe(answer);

    await server.close();
    server = await startServer({ ASK_REQUESTS_PER_MINUTE: '1000' }, { store });
    const {
      context: restarted,
      site: siteAgain,
      copilot: again,
    } = await openReader(browser, server.baseUrl, `reader${readers}@acme.dev`);
    await siteAgain.open('/');
    await again.open();
    await again.waitForAnswer(1);
    expect(await again.lastAnswer.innerText()).toBe(answer);
    await restarted.close();
  });
});

describe('the chat header', () => {
  it('starts a new conversation, and the latest one is what comes back after a reload', async () => {
    await site.open('/');
    await copilot.open();
    const newConversation = copilot.popover.getByRole('button', { name: 'New conversation' });
    expect(await newConversation.isDisabled()).toBe(true);
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await newConversation.click();
    await copilot.welcome.waitFor();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.count()).toBe(1);
    expect(await copilot.userMessages.first().innerText()).toContain('WSL');

    await copilot.popover.getByRole('link', { name: 'Open all conversations' }).click();
    await site.page.waitForURL('**/dev-copilot');
    await expect.poll(() => site.page.getByTestId('regular-threads').getByTestId('thread-row').count()).toBe(2);
  });

  it('offers "Ask about this page" for the page on screen after client-side navigation', async () => {
    await site.open('/firestore-ttl');
    await copilot.open();
    await copilot.launcher.click();
    await site.page.locator('.navbar').getByRole('link', { name: 'Coding Standard' }).click();
    await site.page.waitForURL('**/coding-standard/');
    // The URL changes first; the new page is on screen once its own heading is.
    await site.page.locator('.theme-doc-markdown h1', { hasText: 'Coding Standard' }).waitFor();
    await copilot.launcher.click();
    await copilot.welcome.getByRole('button', { name: 'Ask about this page' }).click();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('"Coding Standard"');
  });
});

describe('composer', () => {
  it('sends on Enter, adds a line on Shift+Enter, and keeps Send disabled while empty', async () => {
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

  it('takes no question until the stored conversation has loaded', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await site.page.route('**/api/threads?status=regular', async (route) => {
      await held;
      await route.continue();
    });
    await site.open('/');
    await copilot.launcher.click();
    await copilot.composerInput.waitFor();
    expect(await copilot.composerInput.isEditable()).toBe(false);
    expect(await site.page.getByRole('button', { name: 'Attach file' }).isDisabled()).toBe(true);
    await copilot.composerInput.press('Enter');
    expect(await copilot.userMessages.count()).toBe(0);
    release();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.count()).toBe(1);
  });

  it('ignores Enter while an input method is composing a word', async () => {
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

  it('Stop and Escape end a held run, say so, and the composer works again', async () => {
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
  it('Copy puts the answer on the clipboard and shows the copied state', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I create a TTL policy for expireAt in Firestore?');
    await copilot.waitForAnswer(1);
    const copy = copilot.action(0, 'Copy');
    await copy.click();
    await expect.poll(() => copy.getAttribute('data-copied')).toBe('true');
    const clipboard = await site.page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain('Firestore TTL');
    expect(clipboard).not.toContain('Sources');
    // The copied state reverts after 3000 ms.
    await expect.poll(() => copy.getAttribute('data-copied'), { timeout: 5000 }).toBeNull();
  });

  it('keeps Good and Bad response (with its reason) after a reload', async () => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
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

  it('edits a question into branch 2/2, switches back to 1/2, and Refresh makes a new answer branch', async () => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    const question = copilot.userMessages.first();
    await question.hover();
    await question.getByRole('button', { name: 'Edit' }).click();
    const edit = site.page.getByTestId('copilot-edit-composer');
    await edit.getByRole('textbox').fill('How do I use WSL?');
    await edit.getByRole('button', { name: 'Send', exact: true }).click();
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
