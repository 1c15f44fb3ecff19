import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, startConversations, test } from './copilot-page-support';

/** What a screen reader hears without looking: that an answer ended and how sure it is, what a list change did. */

startBeforeTests();

test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

/** Every text `testId`'s live region holds from now on, in order, repeats left out. */
async function recordLiveRegion(page: Page, testId: string) {
  await page.evaluate((id) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    const note = () => {
      const text = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
      if (said.at(-1) !== text) said.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, testId);
  return () => page.evaluate(() => (window as unknown as { said: string[] }).said);
}

test('announces once that an answer ended and how sure it is, never its streamed words', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  const region = site.page.getByTestId('copilot-answer-announcement');
  expect(await region.getAttribute('role')).toBe('status');
  const said = await recordLiveRegion(site.page, 'copilot-answer-announcement');
  const questions = [
    ['How do I create a TTL policy for expireAt in Firestore?', 'Dev Copilot answered.'],
    ['How do I set a TTL policy on a DynamoDB table?', 'Dev Copilot found the closest the handbook comes.'],
    [
      'How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?',
      'Dev Copilot: not covered by the handbook.',
    ],
    ['How do I register a GitLab runner?', 'Dev Copilot answered.'],
  ];
  for (const [position, [question, announced]] of questions.entries()) {
    await copilot.ask(question ?? '');
    await copilot.waitForAnswer(position + 1);
    await expect.poll(() => region.textContent()).toBe(announced);
  }
  // Emptied while each answer is written, so the last one, worded as the first, is heard too.
  expect((await said()).filter((text) => text !== '')).toEqual(questions.map(([, announced]) => announced));

  // A conversation loaded again is not announced as if it had just been answered.
  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(questions.length);
  expect(await region.textContent()).toBe('');
});

test('announces an archived and a deleted conversation in the list', async ({ reader, list }) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  const region = site.page.getByTestId('thread-list-status');
  expect(await region.getAttribute('role')).toBe('status');
  await list.row('GitLab runner').getByRole('button', { name: 'Archive' }).click();
  await expect.poll(() => region.textContent()).toBe('Conversation archived.');
  await list.delete('WSL');
  await expect.poll(() => region.textContent()).toBe('Conversation deleted.');
});
