import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/**
 * Answers in the 416 px chat: wide tables and long code lines scroll in their own box (with a shade on the side
 * that hides more) instead of breaking words or being clipped; and the small things a careful designer would not ship.
 */

test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' }, withModel: true });
startBeforeTests();

const longVariable = 'FIREBASE_SERVICE_ACCOUNT_CREDENTIALS_JSON';
const command =
  'gcloud firestore fields ttls update expireAt --collection-group=sessions --enable-ttl --project=acme-production-eu-west';
const wideAnswer = [
  '| Variable | When | Meaning |',
  '|---|---|---|',
  `| \`${longVariable}\` | weekends | Unauthorized unless the service account has the Firebase Admin role |`,
  '',
  '```bash',
  command,
  '```',
].join('\n');

/** Words of the table's cells that the browser drew over more than one line (a word broken mid-word). */
function brokenWords(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll('[data-testid="copilot-assistant-message"] td')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

/** Scrolls the n-th sideways box of the answer to its end and says whether its last character is then in view. */
function scrollToEnd(page: Page, index: number) {
  return page
    .getByTestId('side-scroll')
    .nth(index)
    .evaluate((wrapper) => {
      const box = wrapper.firstElementChild as HTMLElement;
      box.scrollLeft = box.scrollWidth;
      const range = document.createRange();
      const text = box.querySelector('code, td:last-child') as HTMLElement;
      range.selectNodeContents(text);
      const end = [...range.getClientRects()].at(-1);
      const visible = box.getBoundingClientRect();
      return end !== undefined && end.right <= visible.right + 1;
    });
}

test('lets a wide table scroll sideways in its own box, with a cue, never breaking a word', async ({
  reader: { site, copilot },
  fakeModel,
}) => {
  fakeModel.behave({ reply: wideAnswer });
  await copilot.askFirstOn(site, '/', 'Which variables does the deploy need?');
  await expect.poll(() => copilot.lastAnswer.locator('td').count()).toBe(3);
  expect(await brokenWords(site.page)).toEqual([]);
  const table = site.page.getByTestId('side-scroll').first();
  // The box is narrower than its table, says so with a shade on the right, and shows the last column once scrolled.
  await table.getByTestId('scroll-cue').waitFor();
  expect(await scrollToEnd(site.page, 0)).toBe(true);
  await table.getByTestId('scroll-cue').waitFor({ state: 'detached' });
  // Nothing of the chat itself scrolls sideways.
  const viewport = site.page.getByTestId('copilot-viewport');
  expect(await viewport.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});

test('scrolls a long code line inside its block with a cue, and Copy copies the whole line', async ({
  reader: { site, copilot, context },
  server,
  fakeModel,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  fakeModel.behave({ reply: wideAnswer });
  await copilot.askFirstOn(site, '/', 'How do I switch TTL on?');
  const code = site.page.getByTestId('side-scroll').nth(1);
  await code.getByTestId('scroll-cue').waitFor();
  expect(await scrollToEnd(site.page, 1)).toBe(true);
  await copilot.lastAnswer.getByTestId('code-header').getByRole('button', { name: 'Copy' }).click();
  expect((await site.page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(command);
});

test('shows an image whose address was emptied as its description, not a broken image', async ({
  reader: { site, copilot },
  fakeModel,
}) => {
  fakeModel.behave({ reply: 'Look: ![the deploy diagram](javascript:alert(1)) and go on.' });
  await copilot.askFirstOn(site, '/', 'Show me the diagram');
  await expect.poll(() => copilot.lastAnswer.innerText()).toContain('[image: the deploy diagram]');
  // The avatar is the answer's only image.
  expect(await copilot.lastAnswer.locator('img').count()).toBe(1);
});

test('draws a one-line question in a one-line bubble, and the edit box with one ring', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'Short question');
  const bubble = await copilot.userMessages.first().evaluate((message) => {
    const text = message.querySelector('p') as HTMLElement;
    const bubbleBox = (text.parentElement as HTMLElement).getBoundingClientRect();
    const style = getComputedStyle(text.parentElement as HTMLElement);
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    return { height: bubbleBox.height - padding, line: Number.parseFloat(getComputedStyle(text).lineHeight) };
  });
  expect(bubble.height).toBeLessThanOrEqual(bubble.line + 1);

  await copilot.userMessages.first().hover();
  await copilot.userMessages.first().getByRole('button', { name: 'Edit' }).click();
  const editor = site.page.getByTestId('copilot-edit-composer');
  await editor.locator('textarea').focus();
  await site.page.keyboard.press('End');
  const rings = await editor.evaluate((box) => {
    const ring = (element: Element) => {
      const style = getComputedStyle(element);
      return style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
    };
    return { input: ring(box.querySelector('textarea') as Element), box: ring(box) };
  });
  expect(rings).toEqual({ input: false, box: true });
});

test('gives the reason for a bad rating the width of the answer', async ({ reader: { site, copilot } }) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Bad response').click();
  const field = site.page.getByTestId('feedback-reason').getByRole('textbox');
  const width = (await field.boundingBox())?.width ?? 0;
  const answerWidth = (await copilot.lastAnswer.locator('p').first().boundingBox())?.width ?? 0;
  expect(width).toBeGreaterThan(answerWidth * 0.6);
  const reason = 'Misses the --locked flag we use';
  await field.fill(reason);
  // The whole reason fits in the field as typed.
  expect(await field.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
});
