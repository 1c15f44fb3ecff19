import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { runAxe } from './axe';
import { test as base } from './fixtures';
import { type Copilot, CopilotThreadList } from './pages/copilot';
import type { DocsSite } from './pages/docs-site';

/** The e2e fixtures plus `list`: the assistant page's list of conversations, as the test's `reader` sees it. */
export const test = base.extend('list', async ({ reader }) => new CopilotThreadList(reader.site.page));

/**
 * Opens the assistant page and asks each question in a conversation of its own, the last one left open; then
 * reloads, so the list shows the conversations as the server keeps them.
 */
export async function startConversations(
  { site, copilot }: { site: DocsSite; copilot: Copilot },
  list: CopilotThreadList,
  questions: string[],
) {
  await site.open('/dev-copilot');
  for (const [index, question] of questions.entries()) {
    if (index > 0) {
      await list.newConversation();
      await copilot.welcome.waitFor();
    }
    await copilot.ask(question);
    await copilot.waitForAnswer(1);
  }
  await site.page.reload();
  await expect.poll(() => list.regular.count()).toBe(questions.length);
  await copilot.waitForAnswer(1);
}

/** Starts the file's server and browser before its tests, so the first test's time limit is its own. */
export function startBeforeTests() {
  test.beforeAll(async ({ server, browser }) => {
    expect(browser.isConnected()).toBe(true);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
}

/** axe-core's serious and critical violations inside `selector`, as "rule (number of nodes)". */
export async function seriousAxeViolations(page: Page, selector: string): Promise<string[]> {
  return (await runAxe(page, selector))
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.nodes.length})`);
}
