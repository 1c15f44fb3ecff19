import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';
import type { Copilot } from './pages/copilot';
import type { DocsSite } from './pages/docs-site';

/** "Ask Dev Copilot" from a search that found nothing, for a reader who has used the chat before. */

startBeforeTests();

const noHits = 'qwxzvbnmplk';

/** A reader with a conversation of their own; the page is loaded afresh afterwards, the chat's code not yet run. */
async function returningReader(site: DocsSite, copilot: Copilot) {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
}

/** The chat shows the search's question in a conversation of its own, answered, and keeps showing it after a reload. */
async function expectAskedInShownConversation(site: DocsSite, copilot: Copilot) {
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual([noHits]);
  expect(await copilot.lastAnswer.innerText()).toContain('does not seem to cover');
  // The reader's earlier conversation is still there, beside this one.
  await site.open('/dev-copilot');
  await expect.poll(() => site.page.getByTestId('regular-threads').getByTestId('thread-row').count()).toBe(2);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual([noHits]);
}

test('asks from the navbar search in a conversation the chat opens on, for a returning reader', async ({
  reader: { site, copilot },
}) => {
  await returningReader(site, copilot);
  await site.open('/dev-flow/');
  await site.search(noHits);
  await site.page.getByTestId('ask-copilot-from-search').click();
  await site.searchDropdown.waitFor({ state: 'detached' });
  await expectAskedInShownConversation(site, copilot);
});

test('asks from the /search page in a conversation the chat opens on, for a returning reader', async ({
  reader: { site, copilot },
}) => {
  await returningReader(site, copilot);
  await site.open(`/search?q=${noHits}`);
  await site.page.getByTestId('ask-copilot-from-search').click();
  await expectAskedInShownConversation(site, copilot);
});

test('asks from the search in a new conversation while the chat is open on an earlier one', async ({
  reader: { site, copilot },
}) => {
  await returningReader(site, copilot);
  await site.search(noHits);
  await site.page.getByTestId('ask-copilot-from-search').click();
  await expectAskedInShownConversation(site, copilot);
});

test('offers to ask Dev Copilot beside the suggestions when the search found something too', async ({
  reader: { site, copilot },
}) => {
  const question = 'how do I expire old firestore documents';
  await site.open('/');
  await site.search(question);
  const ask = site.page.getByTestId('ask-copilot-beside-results');
  await ask.waitFor();
  expect(await site.suggestions.count()).toBeGreaterThan(0);
  await ask.click();
  await site.searchDropdown.waitFor({ state: 'detached' });
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual([question]);
});

/** Presses ArrowDown `presses` times: the input then points at "Ask Dev Copilot", the option a screen reader hears. */
async function expectReachedWithArrows(site: DocsSite, presses: number) {
  for (let press = 0; press < presses; press += 1) await site.page.keyboard.press('ArrowDown');
  const ask = site.askCopilotOption;
  await expect.poll(() => ask.getAttribute('aria-selected')).toBe('true');
  expect(await site.searchInput.getAttribute('aria-activedescendant')).toBe(await ask.getAttribute('id'));
  expect(await ask.innerText()).toBe('Ask Dev Copilot');
}

test('reaches "Ask Dev Copilot" with the arrows when the search found nothing, and Enter asks it', async ({
  reader: { site, copilot },
}) => {
  await site.open('/dev-flow/');
  await site.search(noHits);
  await site.askCopilotOption.waitFor();
  await expectReachedWithArrows(site, 1);
  // Further down stays on it: it is the last option.
  await site.page.keyboard.press('ArrowDown');
  expect(await site.askCopilotOption.getAttribute('aria-selected')).toBe('true');
  await site.page.keyboard.press('Enter');
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual([noHits]);
  expect(new URL(site.page.url()).pathname).toBe('/dev-flow/');
});

test('reaches "Ask Dev Copilot" with the arrows after the last suggestion', async ({ reader: { site, copilot } }) => {
  const question = 'how do I expire old firestore documents';
  await site.open('/');
  await site.search(question);
  await site.askCopilotOption.waitFor();
  await expectReachedWithArrows(site, (await site.suggestions.count()) + 1);
  await site.page.keyboard.press('Enter');
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  await expect.poll(() => copilot.userMessages.allInnerTexts()).toEqual([question]);
});

test('renders /search?q= without a hydration error', async ({ reader: { site } }) => {
  const errors: string[] = [];
  site.page.on('pageerror', (error) => errors.push(error.message));
  site.page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await site.open(`/search?q=${noHits}&ctx=/dev-flow/`);
  await site.page.getByTestId('ask-copilot-from-search').waitFor();
  expect(await site.page.locator('h1').innerText()).toBe(`Search results for "${noHits}"`);
  expect(await site.page.getByText('Only pages under').innerText()).toContain('/dev-flow/');
  expect(errors.filter((error) => /418|hydrat/i.test(error))).toEqual([]);
});

test('lists no page of the earlier topic when a follow-up in the same conversation is not covered', async ({
  reader: { site, copilot },
}) => {
  await returningReader(site, copilot);
  const earlier = await copilot.lastAnswer
    .getByTestId('copilot-sources')
    .locator('a')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  expect(earlier.length).toBeGreaterThan(0);
  await copilot.ask(noHits);
  await copilot.waitForAnswer(2);
  await expect.poll(() => copilot.lastAnswer.innerText()).toContain('does not seem to cover');
  const suggested = await copilot.lastAnswer
    .locator('a')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  expect(suggested.filter((page) => earlier.includes(page))).toEqual([]);
});
