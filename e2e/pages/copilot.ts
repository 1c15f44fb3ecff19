import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DocsSite } from './docs-site';
import { signInContext } from './sign-in-pages';

/**
 * A signed-in reader in a fresh browser context, on the docs site with Dev Copilot at hand. Each test takes its own
 * e-mail, so one test's conversation is never another's "latest thread".
 */
export async function openReader(browser: Browser, baseUrl: string, email: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  await signInContext(context, baseUrl, email);
  const site = new DocsSite(await context.newPage(), baseUrl);
  return { context, site, copilot: new Copilot(site.page) };
}

/** Dev Copilot as a reader meets it: the floating button, the chat popover, and the /dev-copilot page. */
export class Copilot {
  constructor(readonly page: Page) {}

  get launcher() {
    return this.page.getByTestId('copilot-launcher');
  }

  get popover() {
    return this.page.getByTestId('copilot-popover');
  }

  get composerInput() {
    return this.page.getByPlaceholder('Write a message...');
  }

  get sendButton() {
    return this.page.getByTestId('copilot-composer').getByRole('button', { name: 'Send', exact: true });
  }

  get stopButton() {
    return this.page.getByTestId('copilot-composer').getByRole('button', { name: 'Stop', exact: true });
  }

  get userMessages() {
    return this.page.getByTestId('copilot-user-message');
  }

  get answers() {
    return this.page.getByTestId('copilot-assistant-message');
  }

  get lastAnswer() {
    return this.answers.last();
  }

  /** An answer's text alone (its markdown), without the notes and buttons around it. */
  answerText(answer: ReturnType<Page['getByTestId']>) {
    return answer.getByTestId('copilot-answer-text');
  }

  /**
   * Every text the last answer showed while it streamed, read every 50 ms until it contains `end` (what the answer
   * ends with): what a reader saw along the way, not only where it ended.
   */
  async textsWhileStreaming(end: string): Promise<string[]> {
    const text = this.answerText(this.lastAnswer);
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          seen.push(await text.innerText());
          return seen.at(-1);
        },
        { timeout: 15_000, interval: 50 },
      )
      .toContain(end);
    return seen;
  }

  get welcome() {
    return this.page.getByTestId('copilot-welcome');
  }

  get attachmentError() {
    return this.page.getByTestId('attachment-error');
  }

  /** The light composer the first click shows while the chat's code is still on the way. */
  get shellComposer() {
    return this.page.getByTestId('copilot-shell-composer');
  }

  /** The real composer's text field (the light one of the first moments has the same placeholder). */
  get realComposerInput() {
    return this.page.getByTestId('copilot-composer').getByPlaceholder('Write a message...');
  }

  /** Opens the floating chat and waits until the real chat, its conversation loaded, has replaced the light one. */
  async open() {
    await this.launcher.click();
    await this.realComposerInput.waitFor();
  }

  /** A reader's first question on a page: opens the page and the chat, asks, and waits for the whole answer. */
  async askFirstOn(site: DocsSite, route: string, question: string) {
    await site.open(route);
    await this.open();
    await this.ask(question);
    await this.waitForAnswer(1);
  }

  /** Attaches `files` with the composer's Attach button, as a reader picks them. */
  async attach(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: 'Attach file' }).click();
    await (await chooser).setFiles(files);
  }

  /** The note above an answer that says the handbook only comes close, or does not cover it. */
  confidenceNote(answer: ReturnType<Page['getByTestId']>) {
    return answer.getByTestId('copilot-confidence');
  }

  /** The composer an Edit of a question opens in its place. */
  get editComposer() {
    return this.page.getByTestId('copilot-edit-composer');
  }

  /** Edits the `index`-th question into `question` (its Edit button, as a reader hovers it) and sends it. */
  async editQuestion(index: number, question: string) {
    const message = this.userMessages.nth(index);
    await message.hover();
    await message.getByRole('button', { name: 'Edit' }).click();
    await this.editComposer.getByRole('textbox').fill(question);
    await this.editComposer.getByRole('button', { name: 'Send', exact: true }).click();
  }

  /** Types a question and sends it with Enter. */
  async ask(question: string) {
    await this.composerInput.fill(question);
    await this.composerInput.press('Enter');
  }

  /**
   * Waits until the `count`-th answer exists, its run is over (complete, cancelled or failed) and its smooth text has
   * caught up (the markdown container's own `data-status`).
   */
  async waitForAnswer(count: number) {
    await this.page.waitForFunction((n) => {
      const answer = document.querySelectorAll('[data-testid="copilot-assistant-message"]')[n - 1];
      return (
        answer !== undefined &&
        answer.getAttribute('data-status') !== 'running' &&
        answer.querySelector('[data-status="running"]') === null
      );
    }, count);
  }

  /**
   * Waits until no request is in flight, so a rating or rename just made has reached the server (questions and
   * answers are stored by the server itself before an answer's stream ends).
   */
  async waitUntilSaved() {
    await this.page.waitForLoadState('networkidle');
  }

  action(answer: number, name: string) {
    return this.answers.nth(answer).getByTestId('copilot-actions').getByRole('button', { name, exact: true });
  }

  /** "n / m" of a message's branch picker. */
  branchState(message: ReturnType<Page['getByTestId']>) {
    return message.getByTestId('branch-state');
  }
}

/** The /dev-copilot page's list of conversations. */
export class CopilotThreadList {
  constructor(readonly page: Page) {}

  get regular() {
    return this.page.getByTestId('regular-threads').getByTestId('thread-row');
  }

  get archived() {
    return this.page.getByTestId('archived-threads').getByTestId('thread-row');
  }

  get current() {
    return this.page.locator('[data-testid="thread-row"] [aria-current="page"]');
  }

  row(title: string) {
    return this.page.getByTestId('thread-row').filter({ hasText: title });
  }

  /** Deletes a conversation: Delete, then "Yes, delete" in the row's confirmation. */
  async delete(title: string) {
    await this.row(title).getByRole('button', { name: 'Delete' }).click();
    await this.row(title).getByRole('button', { name: 'Yes, delete' }).click();
  }

  async newConversation() {
    await this.page.getByRole('button', { name: 'New conversation' }).click();
  }
}
