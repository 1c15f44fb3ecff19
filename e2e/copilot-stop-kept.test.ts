import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FakeModelServer } from '../server/test-support/fake-model-server.js';
import { test } from './fixtures';
import { holdRequests } from './held-requests';
import type { Copilot } from './pages/copilot';
import type { DocsSite } from './pages/docs-site';

/**
 * Stop keeps what the reader saw: the answer on screen when it has settled after Stop is the one stored, word for
 * word, so a reload shows the same text. With a slowly streaming model, as in the review that found the screen ending
 * "and the" and the stored answer "and the Shopify": the widget sent the Stop only once the next word had come.
 */
test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' }, withModel: true });

/** When the server hung up on the model's answer (the chat request, not an embedding). */
const modelRequestClosedEarly = (fake: FakeModelServer) =>
  fake.received.find((request) => request.protocol === 'openai')?.closedEarlyAt;

/** How the server stored the reader's newest answer ('running' while it writes it), read as the page reads it. */
const storedAnswerStatus = (page: Page) =>
  page.evaluate(async () => {
    const { threads } = (await (await fetch('/api/threads')).json()) as { threads: Array<{ id: string }> };
    if (!threads[0]) return undefined;
    const thread = (await (await fetch(`/api/threads/${threads[0].id}`)).json()) as {
      messages: Array<{ role: string; status?: string }>;
    };
    return thread.messages.filter((message) => message.role === 'assistant').at(-1)?.status;
  });

/** Each test waits for a slow model's words and a reload; the first also for the file's server to start. */
const slowTestMs = 60_000;

type Reader = { site: DocsSite; copilot: Copilot };

/** Asks the laptop question and presses Stop once the answer shows `shownFirst`; returns the answer's text. */
async function askAndStop({ site, copilot }: Reader, shownFirst: string, timeout: number) {
  await site.open('/');
  await copilot.open();
  await copilot.ask('How do I set up my laptop?');
  const text = copilot.answerText(copilot.lastAnswer);
  await expect.poll(() => text.innerText(), { timeout }).toContain(shownFirst);
  await copilot.stopButton.click();
  await copilot.waitForAnswer(1);
  return text;
}

/** After a reload, the answer reads `shown` word for word, marked stopped or not. */
async function expectReloadShows({ site, copilot }: Reader, shown: string, stopped: boolean) {
  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(1);
  if (stopped) await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
  expect(await copilot.answerText(copilot.lastAnswer).innerText()).toBe(shown);
  expect(await copilot.lastAnswer.getByTestId('copilot-cancelled').count()).toBe(stopped ? 1 : 0);
}

const reply =
  'To set up your laptop, install Node.js first, then the Firebase CLI and the Shopify CLI, then clone the ' +
  'handbook repository, run the setup script, sign in to the cloud console, and finally open the project.';

test(
  'an answer stopped mid-stream shows after a reload exactly the text it showed once it settled',
  async ({ reader: { site, copilot }, fakeModel: fake }) => {
    // One word a second: the reader stops well before the next word, which must then never be written.
    fake.behave({ reply, chunkDelayMs: 1000 });
    const text = await askAndStop({ site, copilot }, 'Node.js', 15_000);
    await copilot.lastAnswer.getByTestId('copilot-cancelled').waitFor();
    const atStop = await text.innerText();
    // The model request is cancelled once the server has the Stop; by then the answer is stored as it ended.
    await expect.poll(() => modelRequestClosedEarly(fake), { timeout: 15_000 }).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const shown = await text.innerText();
    expect(shown).toBe(atStop);
    expect(shown).toContain('Node.js');
    expect(shown).not.toContain('open the project');

    await expectReloadShows({ site, copilot }, shown, true);
  },
  slowTestMs,
);

test(
  'words already on their way when the reader pressed Stop are shown once it settles, as a reload shows them',
  async ({ reader: { site, copilot }, fakeModel: fake }) => {
    fake.behave({ reply, chunkDelayMs: 300 });
    // A slow network for the Stop: the server writes on until it arrives, and keeps those words too.
    const letStopThrough = await holdRequests(site.page, '**/api/threads/*/stop');
    const text = await askAndStop({ site, copilot }, 'Firebase CLI and', 10_000);
    const atStop = await text.innerText();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    letStopThrough();
    await expect.poll(() => modelRequestClosedEarly(fake), { timeout: 15_000 }).toBeDefined();
    // The stopped answer grows by the words written meanwhile, then settles.
    await expect.poll(() => text.innerText()).not.toBe(atStop);
    await copilot.waitForAnswer(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const shown = await text.innerText();
    expect(shown.startsWith(atStop)).toBe(true);
    expect(shown).not.toContain('open the project');
    expect(await copilot.lastAnswer.getByTestId('copilot-cancelled').count()).toBe(1);

    await expectReloadShows({ site, copilot }, shown, true);
  },
  slowTestMs,
);

test(
  'a Stop that reaches the server after the answer ended shows the whole stored answer, as a reload does',
  async ({ reader: { site, copilot }, fakeModel: fake }) => {
    fake.behave({ reply, chunkDelayMs: 100 });
    // A slow network: the Stop arrives only once the server has written the whole answer and stored it.
    const letStopThrough = await holdRequests(site.page, '**/api/threads/*/stop');
    const text = await askAndStop({ site, copilot }, 'Node.js', 10_000);
    await expect.poll(() => storedAnswerStatus(site.page), { timeout: 15_000 }).toBe('complete');
    const stopAnswered = site.page.waitForResponse('**/api/threads/*/stop');
    letStopThrough();
    expect((await stopAnswered).status()).toBe(404);
    // The screen settles on the answer the server kept, not on "You stopped this answer." with half of it.
    await expect.poll(() => text.innerText(), { timeout: 10_000 }).toContain('open the project');
    await copilot.waitForAnswer(1);
    expect(await copilot.lastAnswer.getByTestId('copilot-cancelled').count()).toBe(0);
    const shown = await text.innerText();

    await expectReloadShows({ site, copilot }, shown, false);
  },
  slowTestMs,
);
