import {
  type MessageDto,
  textOfContent,
  threadListResponseSchema,
  threadWithMessagesResponseSchema,
} from '@acme/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';
import { Copilot } from './pages/copilot';
import { DocsSite } from './pages/docs-site';

/** One conversation open in two tabs of one browser: what is asked in one reaches the other before it asks. */

startBeforeTests();

const runner = 'How do I register a GitLab runner?';
const wsl = 'How do I use WSL?';
const flags = 'How do I turn on a feature flag?';

/** A second tab of the reader's browser, on the assistant page, its conversation (the reader's latest) loaded. */
async function secondTab(context: BrowserContext, baseUrl: string, answers: number) {
  const site = new DocsSite(await context.newPage(), baseUrl);
  const copilot = new Copilot(site.page);
  await site.open('/dev-copilot');
  await copilot.waitForAnswer(answers);
  return copilot;
}

/**
 * The reader comes back to a tab. Headless Chromium keeps every tab visible and focused, so it never says so itself:
 * the test sends what a browser sends when the tab is shown and takes the focus again.
 */
async function comeBack(page: Page) {
  await page.evaluate(() => {
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new FocusEvent('focus'));
  });
}

/**
 * The reader's one conversation as the server keeps it, read with the tab's own session: for a question's text, the
 * question the answer it follows was given to (null for a first question).
 */
async function storedConversation(page: Page, baseUrl: string) {
  const list = threadListResponseSchema.parse(await (await page.request.get(`${baseUrl}/api/threads`)).json());
  const [thread] = list.threads;
  if (!thread || list.threads.length !== 1) throw new Error(`expected one conversation, found ${list.threads.length}`);
  const response = await page.request.get(`${baseUrl}/api/threads/${thread.id}`);
  const { messages } = threadWithMessagesResponseSchema.parse(await response.json());
  const byId = (id: string | null) => messages.find((message) => message.id === id);
  const textOf = (message: MessageDto | undefined) => (message ? textOfContent(message.content) : null);
  return {
    questionBefore(text: string) {
      const question = messages.find((message) => message.role === 'user' && textOfContent(message.content) === text);
      if (!question) throw new Error(`"${text}" is not stored`);
      return textOf(byId(byId(question.parentId)?.parentId ?? null));
    },
  };
}

const questionTexts = (copilot: Copilot) => copilot.userMessages.allInnerTexts();

test('shows the question and answer asked in another tab when the reader comes back to this one', async ({
  reader: { site, copilot, context },
}) => {
  await site.open('/dev-copilot');
  await copilot.ask(runner);
  await copilot.waitForAnswer(1);
  const other = await secondTab(context, site.baseUrl, 1);
  await other.ask(wsl);
  await other.waitForAnswer(2);
  expect(await questionTexts(copilot)).toEqual([runner]);

  await comeBack(site.page);

  await expect.poll(() => questionTexts(copilot)).toEqual([runner, wsl]);
  await copilot.waitForAnswer(2);
  expect(await site.page.getByTestId('branch-state').count()).toBe(0);
});

test('a question sent from a tab left behind follows the newest answer, shown first, instead of forking the conversation', async ({
  reader: { site, copilot, context },
}) => {
  await copilot.askFirstOn(site, '/', runner);
  const other = await secondTab(context, site.baseUrl, 1);
  await other.ask(wsl);
  await other.waitForAnswer(2);

  // The widget's tab never came back into view: it still shows one question when the reader asks the next.
  expect(await questionTexts(copilot)).toEqual([runner]);
  await copilot.ask(flags);

  await expect.poll(() => questionTexts(copilot)).toEqual([runner, wsl, flags]);
  await copilot.waitForAnswer(3);
  expect(await site.page.getByTestId('branch-state').count()).toBe(0);
  expect((await storedConversation(site.page, site.baseUrl)).questionBefore(flags)).toBe(wsl);

  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(3);
  expect(await questionTexts(copilot)).toEqual([runner, wsl, flags]);
  expect(await site.page.getByTestId('branch-state').count()).toBe(0);
});

test('a tab that asked the last question asks the next without reading the whole conversation again', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', runner);
  const wholeReads: string[] = [];
  site.page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'GET' && /^\/api\/threads\/[^/]+$/.test(pathname)) wholeReads.push(pathname);
  });

  await copilot.ask(wsl);
  await copilot.waitForAnswer(2);
  await copilot.ask(flags);
  await copilot.waitForAnswer(3);

  expect(wholeReads).toEqual([]);
  expect((await storedConversation(site.page, site.baseUrl)).questionBefore(flags)).toBe(wsl);
});
