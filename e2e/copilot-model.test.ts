import { describe, expect } from 'vitest';
import { findReportItems } from '../server/src/store/questions.js';
import { heldAnswer } from '../server/test-support/fake-model-server.js';
import { test } from './fixtures';

/**
 * The widget with a model configured: the real server asks a local server speaking the OpenAI chat-completions
 * protocol, so everything between the model's words and the reader's screen is the product's own code.
 */
test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' }, withModel: true });

describe('Dev Copilot with a model', () => {
  test('shows a javascript: link and raw <img onerror> from the model as harmless text', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({
      reply: [
        'See [x](javascript:alert(1)) and ',
        '<img src=x onerror="window.__pwned=1">',
        ' and [the TTL guide](/firestore-ttl).',
      ],
      chunkDelayMs: 20,
    });
    const dialogs: string[] = [];
    site.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await copilot.askFirstOn(site, '/', 'Show me something dangerous');
    const answer = copilot.lastAnswer;
    // Smooth streaming may still be revealing the last words when the run has ended.
    await expect.poll(() => answer.innerText()).toContain('<img src=x onerror="window.__pwned=1"> and the TTL guide.');
    expect(await answer.locator('img').count()).toBe(1); // the avatar only
    const unsafe = answer.getByText('x', { exact: true });
    expect((await unsafe.getAttribute('href')) ?? '').not.toMatch(/javascript/i);
    await unsafe.click();
    const safe = answer.getByRole('link', { name: 'the TTL guide' });
    expect(await safe.getAttribute('href')).toBe('/firestore-ttl');
    expect(dialogs).toEqual([]);
    expect(await site.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  test('answers from the docs, saying so in one line, when the provider fails before its first word', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({ status: 401 });
    await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
    const answer = copilot.lastAnswer;
    await expect
      .poll(() => answer.innerText())
      .toContain('The AI model could not be reached just now, so this answer comes from the docs search alone.');
    expect(await answer.getByRole('link').first().getAttribute('href')).toMatch(/^\/setting-up-gitlab-runner/);
    expect(await answer.getByTestId('copilot-error').count()).toBe(0);
  });

  test('shows a provider failure mid-answer with a retry that answers once the provider is back', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({ reply: 'To deploy, first run the', cutAfter: 3 });
    await copilot.askFirstOn(site, '/', 'How do I deploy?');
    const error = copilot.lastAnswer.getByTestId('copilot-error');
    expect(await error.innerText()).toContain('The connection to the model provider failed or broke off mid-answer');
    fake.behave({ reply: 'Deploy with [the go-live procedure](/go-live-procedure).' });
    await error.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => copilot.lastAnswer.innerText()).toContain('Deploy with the go-live procedure');
    expect(await copilot.lastAnswer.getByTestId('copilot-error').count()).toBe(0);
  });

  test('stores the answer under the id the questions log uses, so a thumbs-down meets its question', async ({
    reader: { site, copilot },
    fakeModel: fake,
    server,
  }) => {
    fake.behave({
      reply: 'I am not sure; try [the FAQs](/faqs/).',
      toolCalls: [{ name: 'answer_status', input: { confidence: 'none', cited: [] } }],
    });
    await copilot.askFirstOn(site, '/', 'What is the recipe for tiramisu with mascarpone?');
    await copilot.action(0, 'Bad response').click();
    await site.page.getByTestId('feedback-reason').getByRole('textbox').fill('Off topic');
    await site.page.getByTestId('feedback-reason').getByRole('button', { name: 'Send reason' }).click();
    await expect
      .poll(async () =>
        (await findReportItems(server.store.db, { limit: 50 })).find((item) => item.comment === 'Off topic'),
      )
      .toMatchObject({
        kind: 'rated-down',
        question: 'What is the recipe for tiramisu with mascarpone?',
        covered: false,
        mode: 'model',
      });
  });

  test('renders headings to h6, GFM tables and lists, and code blocks with a language header and Copy', async ({
    reader: { site, copilot, context },
    fakeModel: fake,
    server,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    fake.behave({
      reply: [
        '# Title one\n\n###### Title six\n\n####### not a heading\n\n',
        '| Step | Command |\n|---|---|\n| Build | `npm run build` |\n| Test | `npm test` |\n\n',
        '- first\n- second\n\n',
        '```bash\nnpm ci\n```\n',
      ],
    });
    await copilot.askFirstOn(site, '/', 'Show me the markdown');
    const answer = copilot.lastAnswer;
    await answer.getByTestId('code-header').waitFor();
    expect(await answer.locator('h1').innerText()).toBe('Title one');
    expect(await answer.locator('h6').innerText()).toBe('Title six');
    expect(await answer.getByText('####### not a heading').count()).toBe(1);
    expect(await answer.locator('table tr').count()).toBe(3);
    expect(await answer.locator('table td').allInnerTexts()).toEqual(['Build', 'npm run build', 'Test', 'npm test']);
    expect(await answer.locator('li').allInnerTexts()).toEqual(['first', 'second']);

    const header = answer.getByTestId('code-header');
    expect(await header.innerText()).toContain('bash');
    const copy = header.getByRole('button', { name: 'Copy' });
    await copy.scrollIntoViewIfNeeded();
    await copy.focus();
    await expect.poll(() => site.page.getByRole('tooltip').innerText()).toBe('Copy');
    await copy.click();
    await expect.poll(() => copy.getAttribute('data-copied')).toBe('true');
    expect(await site.page.evaluate(() => navigator.clipboard.readText())).toBe('npm ci\n');
  });

  test('follows a streaming answer until the reader scrolls up, then offers Scroll to bottom', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    // The answer stops half-way until the reader has scrolled up, however slow the machine: it is still streaming then.
    const scrolledUp = heldAnswer();
    fake.behave({
      reply: Array.from({ length: 160 }, (_, index) => `Line ${index} of a long answer.\n\n`),
      chunkDelayMs: 10,
      holdAt: { piece: 80, until: scrolledUp.until },
    });
    await site.open('/');
    await copilot.open();
    await copilot.ask('Give me a long answer');
    const viewport = site.page.getByTestId('copilot-viewport');
    const distanceFromBottom = () =>
      viewport.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    const scrollToBottom = site.page.getByRole('button', { name: 'Scroll to bottom' });

    // While it streams the message has its running style and the view keeps to the newest words.
    await expect.poll(() => copilot.lastAnswer.getAttribute('data-status')).toBe('running');
    await expect.poll(() => viewport.evaluate((element) => element.scrollHeight > element.clientHeight * 2)).toBe(true);
    await expect.poll(distanceFromBottom).toBeLessThan(80);

    await viewport.hover();
    await site.page.mouse.wheel(0, -1500);
    // The reader scrolled up while the answer still streams: from here on the view stays where they left it.
    expect(await copilot.lastAnswer.getAttribute('data-status')).toBe('running');
    scrolledUp.release();
    await copilot.waitForAnswer(1);
    expect(await distanceFromBottom()).toBeGreaterThan(300);

    await scrollToBottom.click();
    await expect.poll(distanceFromBottom).toBeLessThan(5);
    // At the bottom the button is gone (disabled and hidden, so out of the accessibility tree too).
    await expect.poll(() => scrollToBottom.count()).toBe(0);
  });
});

describe('the server owns the turn', () => {
  const longAnswer = Array.from({ length: 30 }, (_, index) => `Step ${index + 1} of the rollback.`).join(' ');

  test('finishes the answer when the reader closes the page mid-answer; a reload shows all of it', async ({
    reader: { site, copilot, context },
    fakeModel: fake,
    server,
  }) => {
    fake.behave({ reply: longAnswer, chunkDelayMs: 30 });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I roll back a release?');
    await expect.poll(() => copilot.lastAnswer.innerText()).toContain('Step 2');
    await site.page.close();
    // Nobody is reading any more; the server still hears the model out.
    await expect.poll(() => fake.received.at(-1)?.finishedAt, { timeout: 10_000 }).toBeDefined();

    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByTestId('copilot-launcher').click();
    const answer = page.getByTestId('copilot-assistant-message').last();
    await expect.poll(() => answer.innerText(), { timeout: 15_000 }).toContain('Step 30 of the rollback.');
    expect(await answer.getAttribute('data-status')).toBe('complete');
    expect(fake.received.at(-1)?.closedEarlyAt).toBeUndefined();
  });

  test('shows an answer still being written after a reload mid-answer, and follows it to its end', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({ reply: longAnswer, chunkDelayMs: 30 });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I roll back a release?');
    await expect.poll(() => copilot.lastAnswer.innerText(), { timeout: 10_000 }).toContain('Step 3');
    await site.page.reload();
    await copilot.open();
    await copilot.lastAnswer.getByTestId('copilot-still-writing').waitFor();
    await copilot.stopButton.waitFor();
    expect(await copilot.composerInput.isEditable()).toBe(true);
    await expect.poll(() => copilot.lastAnswer.innerText(), { timeout: 15_000 }).toContain('Step 30 of the rollback.');
    await copilot.lastAnswer.getByTestId('copilot-still-writing').waitFor({ state: 'detached' });
    expect(await copilot.composerInput.isEditable()).toBe(true);
  });

  test('keeps what was written when the reader presses Stop, and shows it stopped after a reload', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({ reply: longAnswer, chunkDelayMs: 60 });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I roll back a release?');
    await expect.poll(() => copilot.lastAnswer.innerText()).toContain('Step 2');
    await copilot.stopButton.click();
    await copilot.waitForAnswer(1);
    await expect.poll(() => fake.received.at(-1)?.closedEarlyAt).toBeDefined();

    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    const stopped = copilot.lastAnswer;
    expect(await stopped.getByTestId('copilot-cancelled').count()).toBe(1);
    expect(await stopped.innerText()).toContain('Step 1');
    expect(await stopped.innerText()).not.toContain('Step 30');
  });

  test('shows a link the build has as a link and an invented one as plain text, also after a reload', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave({
      reply: ['Set the policy as in ', '[the TTL guide](/firestore-ttl) ', 'and [the runbook](/no-such-page#x).'],
      chunkDelayMs: 40,
    });
    await copilot.askFirstOn(site, '/', 'How do I set a TTL policy?');
    const answer = copilot.lastAnswer;
    await expect.poll(() => answer.innerText()).toContain('and the runbook.');
    expect(await answer.getByRole('link', { name: 'the TTL guide' }).getAttribute('href')).toBe('/firestore-ttl');
    expect(await answer.getByRole('link', { name: 'the runbook' }).count()).toBe(0);
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.lastAnswer.getByRole('link', { name: 'the TTL guide' }).count()).toBe(1);
    expect(await copilot.lastAnswer.getByRole('link', { name: 'the runbook' }).count()).toBe(0);
    expect(await copilot.lastAnswer.innerText()).toContain('and the runbook.');
  });
});

describe("the model's search of the handbook", () => {
  test('shows "Searched the handbook for …" folded above the answer, opens to the sections found, and a reload shows it', async ({
    reader: { site, copilot },
    fakeModel: fake,
  }) => {
    fake.behave([
      {
        reply: [],
        toolCalls: [{ name: 'search_handbook', input: { query: 'firestore ttl <img src=x onerror=alert(1)>' } }],
      },
      {
        reply: 'Set a TTL policy as [the TTL guide](/firestore-ttl) says.',
        toolCalls: [{ name: 'answer_status', input: { confidence: 'answered', cited: ['/firestore-ttl'] } }],
      },
    ]);
    await copilot.askFirstOn(site, '/', 'how do old docs get cleaned up by themselves?');

    const shows = async () => {
      const search = copilot.lastAnswer.getByTestId('copilot-handbook-search');
      await search.waitFor();
      expect(await search.locator('summary').innerText()).toBe(
        'Searched the handbook for “firestore ttl <img src=x onerror=alert(1)>”',
      );
      // Folded by default: what it found shows only when the reader opens it.
      const found = search.getByRole('link').first();
      expect(await found.isVisible()).toBe(false);
      await search.locator('summary').click();
      expect(await found.isVisible()).toBe(true);
      expect(await found.getAttribute('href')).toMatch(/^\/firestore-ttl/);
      expect(await search.locator('img').count()).toBe(0);
      // The search comes before the answer's text.
      expect(await copilot.lastAnswer.innerText()).toMatch(/Searched the handbook[\s\S]*Set a TTL policy/);
    };
    await shows();

    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    await shows();
  });
});
