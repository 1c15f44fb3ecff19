import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FakeModelServer } from '../server/test-support/fake-model-server.js';
import { test } from './fixtures';
import type { Copilot } from './pages/copilot';

/**
 * An answer the reader comes back to after a reload mid-answer can be stopped as in the tab that asked it (spec
 * sections 4 and 5: Cancel while an answer runs, Escape cancels). The review that found it: after a reload the answer
 * grew under "Dev Copilot is still writing this answer…" with no Stop button, Escape closed the chat and left the
 * answer running, and the message box took the focus but dropped every key (read-only, looking normal).
 */
test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' }, withModel: true });

/** Each test waits for a slow model's words and two reloads; the first also for the file's server to start. */
const slowTestMs = 120_000;

/** 750 words, one every 200 ms: still being written long after a reload and a draft on a busy machine. */
const reply = Array.from({ length: 150 }, (_, index) => `Step ${index + 1} of the rollback.`).join(' ');

/** When the server hung up on the model's answer (the chat request, not an embedding). */
const modelRequestClosedEarly = (fake: FakeModelServer) =>
  fake.received.find((request) => request.protocol === 'openai')?.closedEarlyAt;

/** Asks, lets the answer begin, reloads the tab and opens the chat again on the answer still being written. */
async function reloadMidAnswer(page: Page, copilot: Copilot, fake: FakeModelServer) {
  fake.behave({ reply, chunkDelayMs: 200 });
  await copilot.open();
  await copilot.ask('How do I roll back a release?');
  await expect.poll(() => copilot.lastAnswer.innerText(), { timeout: 15_000 }).toContain('Step 2');
  await page.reload();
  await copilot.open();
  await copilot.lastAnswer.getByTestId('copilot-still-writing').waitFor();
}

test(
  'after a reload mid-answer, Stop ends the answer, keeps what was written and takes a draft meanwhile',
  async ({ reader: { site, copilot }, fakeModel: fake }) => {
    await site.open('/');
    await reloadMidAnswer(site.page, copilot, fake);

    // As in the tab that asked: Stop in the place of Send, and the message box takes a draft that Enter does not send.
    await copilot.stopButton.waitFor();
    expect(await copilot.sendButton.count()).toBe(0);
    await copilot.composerInput.click();
    await site.page.keyboard.type('And how do I roll forward?');
    expect(await copilot.composerInput.inputValue()).toBe('And how do I roll forward?');
    await site.page.keyboard.press('Enter');
    expect(await copilot.userMessages.count()).toBe(1);
    // The answer shown grows meanwhile, and the draft stays.
    const answerText = copilot.answerText(copilot.lastAnswer);
    const beforeGrowing = await answerText.innerText();
    await expect.poll(() => answerText.innerText(), { timeout: 15_000 }).not.toBe(beforeGrowing);
    expect(await copilot.composerInput.inputValue()).toBe('And how do I roll forward?');

    const stopCall = site.page.waitForResponse((response) => /\/api\/threads\/[^/]+\/stop$/.test(response.url()));
    await copilot.stopButton.click();
    expect((await stopCall).status()).toBe(204);
    await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
    await expect.poll(() => modelRequestClosedEarly(fake), { timeout: 15_000 }).toBeDefined();
    await copilot.lastAnswer.getByTestId('copilot-still-writing').waitFor({ state: 'detached' });
    // The words written since the last look are revealed smoothly, as any growth of the answer is.
    await copilot.waitForAnswer(1);
    const settled = await answerText.innerText();
    expect(settled).toContain('Step 2');
    expect(settled).not.toContain('Step 150');
    expect(await copilot.composerInput.inputValue()).toBe('And how do I roll forward?');
    expect(await copilot.sendButton.isEnabled()).toBe(true);

    // What the screen settled on is what the server stored, marked stopped.
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
    expect(await copilot.answerText(copilot.lastAnswer).innerText()).toBe(settled);
  },
  slowTestMs,
);

test(
  'after a reload mid-answer, Escape in the message box stops the answer and the chat stays open',
  async ({ reader: { site, copilot }, fakeModel: fake }) => {
    await site.open('/');
    await reloadMidAnswer(site.page, copilot, fake);

    await copilot.composerInput.press('Escape');
    await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
    expect(await copilot.popover.isVisible()).toBe(true);
    await expect.poll(() => modelRequestClosedEarly(fake), { timeout: 15_000 }).toBeDefined();
    expect(await copilot.answerText(copilot.lastAnswer).innerText()).not.toContain('Step 150');
  },
  slowTestMs,
);
