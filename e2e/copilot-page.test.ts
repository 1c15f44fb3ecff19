import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type TestServer } from './harness';
import { type Copilot, CopilotThreadList, openReader } from './pages/copilot';
import type { DocsSite } from './pages/docs-site';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let site: DocsSite;
let copilot: Copilot;
let readers = 0;

beforeAll(async () => {
  server = await startServer({ ASK_REQUESTS_PER_MINUTE: '1000' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  ({ context, site, copilot } = await openReader(browser, server.baseUrl, `page-reader${++readers}@acme.dev`));
});
afterEach(async () => {
  await context.close();
  expect(site.policyViolations).toEqual([]);
});

/** A PNG screenshot of an error message, rendered by the browser itself. */
async function errorScreenshot(page: Page): Promise<Buffer> {
  const scratch = await page.context().newPage();
  await scratch.setContent(
    '<pre style="font:20px monospace;padding:20px">Error: FAILED_PRECONDITION: The query requires an index.</pre>',
  );
  const png = await scratch.screenshot({ clip: { x: 0, y: 0, width: 760, height: 80 } });
  await scratch.close();
  return png;
}

async function attach(files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = site.page.waitForEvent('filechooser');
  await site.page.getByRole('button', { name: 'Attach file' }).click();
  await (await chooser).setFiles(files);
}

describe('image attachments', () => {
  it('sends a screenshot with the question as base64, shows it, and previews it in a dialog', async () => {
    const asked: string[] = [];
    site.page.on('request', (request) => {
      if (request.url().endsWith('/api/askAi')) asked.push(request.postData() ?? '');
    });
    await site.open('/');
    await copilot.open();
    const png = await errorScreenshot(site.page);
    await attach([{ name: 'error.png', mimeType: 'image/png', buffer: png }]);
    const pending = site.page.getByTestId('copilot-composer').getByTestId('copilot-attachment');
    await pending.waitFor();
    await pending.getByRole('button', { name: 'Preview error.png' }).click();
    const dialog = site.page.getByTestId('attachment-preview');
    expect(await dialog.getByRole('heading').innerText()).toBe('Image Attachment Preview');
    const image = dialog.getByRole('img', { name: 'error.png' });
    await image.waitFor();
    expect((await image.boundingBox())?.height ?? 0).toBeLessThanOrEqual(900 * 0.75);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await copilot.ask('What does this error mean?');
    await copilot.waitForAnswer(1);
    const body = JSON.parse(asked[0] ?? '{}') as {
      messages: Array<{ attachments: Array<{ contentType: string; content: string; name: string }> }>;
    };
    const sent = body.messages.at(-1)?.attachments[0];
    expect(sent?.contentType).toBe('image/png');
    expect(sent?.name).toBe('error.png');
    expect(Buffer.from(sent?.content ?? '', 'base64').equals(png)).toBe(true);
    // Sent images stay visible in the message but can no longer be removed.
    const inMessage = copilot.userMessages.first().getByTestId('copilot-attachment');
    expect(await inMessage.count()).toBe(1);
    expect(await inMessage.getByRole('button', { name: 'Remove file' }).count()).toBe(0);
    // The server read the screenshot and answered from the pages about that error.
    const answer = await copilot.lastAnswer.innerText();
    expect(answer).toMatch(/From your screenshot I read: "[^"]*requires an index/);
    const sources = await copilot.lastAnswer
      .getByTestId('copilot-sources')
      .locator('a')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    expect(sources.some((source) => /^\/(common-pitfalls|firebase-gcp-pitfalls|faqs)/.test(source))).toBe(true);
  });

  it('refuses a 6 MB image and a PDF before upload, and lets a waiting image be removed', async () => {
    await site.open('/');
    await copilot.open();
    await attach([{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024, 1) }]);
    await expect.poll(() => copilot.attachmentError.innerText()).toContain('at most 5 MB');
    await attach([{ name: 'spec.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
    await expect.poll(() => copilot.attachmentError.innerText()).toContain('not an image');
    expect(await site.page.getByTestId('copilot-attachment').count()).toBe(0);

    await attach([{ name: 'shot.png', mimeType: 'image/png', buffer: await errorScreenshot(site.page) }]);
    await site.page.getByTestId('copilot-attachment').waitFor();
    expect(await copilot.attachmentError.count()).toBe(0);
    await site.page.getByRole('button', { name: 'Remove file' }).click();
    await expect.poll(() => site.page.getByTestId('copilot-attachment').count()).toBe(0);
  });
});

describe('more ways to give and take', () => {
  it('takes a screenshot pasted into the composer, and one dropped on it', async () => {
    await site.open('/');
    await copilot.open();
    const png = await errorScreenshot(site.page);
    const base64 = png.toString('base64');
    const give = (how: 'paste' | 'drop', name: string) =>
      site.page.evaluate(
        ({ how, name, base64 }) => {
          const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], name, { type: 'image/png' }));
          const input = document.querySelector('[data-testid="copilot-composer"] textarea');
          if (!input) throw new Error('no composer');
          if (how === 'paste') {
            input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
          } else {
            for (const type of ['dragenter', 'dragover', 'drop']) {
              input.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
            }
          }
        },
        { how, name, base64 },
      );
    await give('paste', 'pasted.png');
    await give('drop', 'dropped.png');
    const pending = site.page.getByTestId('copilot-composer').getByTestId('copilot-attachment');
    await expect.poll(() => pending.count()).toBe(2);
    await pending.getByRole('button', { name: 'Preview pasted.png' }).waitFor();
    await pending.getByRole('button', { name: 'Preview dropped.png' }).waitFor();
    // Chromium names every pasted screenshot image.png: a second one is added, not swapped for the first.
    await give('paste', 'image.png');
    await give('paste', 'image.png');
    await expect.poll(() => pending.count()).toBe(4);
  });

  it('offers no Read aloud where the browser cannot speak', async () => {
    await site.page.addInitScript(() => {
      delete (window as unknown as { speechSynthesis?: unknown }).speechSynthesis;
    });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await copilot.action(0, 'Copy').waitFor();
    expect(await copilot.action(0, 'Read aloud').count()).toBe(0);
  });

  it('tells the reader when the conversation could not be saved', async () => {
    await site.page.route('**/api/threads/*/messages', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal:threads', message: 'The database is unavailable.' } }),
      }),
    );
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    const problem = site.page.getByTestId('copilot-save-problem');
    await expect.poll(() => problem.innerText()).toContain('could not be saved (The database is unavailable.)');
    await problem.getByRole('button', { name: 'Dismiss' }).click();
    await problem.waitFor({ state: 'detached' });
  });

  it('reads an answer aloud with the browser speech synthesis', async () => {
    // Headless Chromium has no voices; the page's own speechSynthesis is watched to see what it was asked to say.
    await site.page.addInitScript(() => {
      const spoken: string[] = [];
      (window as unknown as { spoken: string[] }).spoken = spoken;
      const speak = window.speechSynthesis.speak.bind(window.speechSynthesis);
      window.speechSynthesis.speak = (utterance) => {
        spoken.push(utterance.text);
        speak(utterance);
      };
    });
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await copilot.action(0, 'Read aloud').click();
    const spoken = await site.page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toContain('GitLab');
  });
});

describe('the assistant page', () => {
  it('treats the conversation it opens with as the open one: deleting it starts a new one', async () => {
    const list = new CopilotThreadList(site.page);
    await site.open('/dev-copilot');
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.current.innerText()).toContain('GitLab runner');
    // Delete asks first; Keep leaves the conversation as it was.
    await list.row('GitLab runner').getByRole('button', { name: 'Delete' }).click();
    await list.row('GitLab runner').getByRole('button', { name: 'Keep' }).click();
    expect(await list.regular.count()).toBe(1);
    expect(await copilot.userMessages.count()).toBe(1);
    await list.delete('GitLab runner');
    await copilot.welcome.waitFor();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.regular.count()).toBe(1);
    expect(await list.regular.first().innerText()).toContain('WSL');
    expect(await site.page.getByTestId('copilot-save-problem').count()).toBe(0);
  });

  it('lists conversations; archiving or deleting the open one moves to the next regular one, or a new one', async () => {
    const list = new CopilotThreadList(site.page);
    await site.open('/dev-copilot');
    expect(await copilot.launcher.count()).toBe(0);
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.regular.count()).toBe(1);
    await list.newConversation();
    await copilot.welcome.waitFor();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.regular.count()).toBe(2);
    expect(await list.current.innerText()).toContain('WSL');

    await list.row('WSL').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => list.archived.count()).toBe(1);
    await expect.poll(() => list.current.innerText()).toContain('GitLab runner');
    await expect.poll(() => copilot.userMessages.first().innerText()).toContain('GitLab runner');

    await list.delete('GitLab runner');
    await expect.poll(() => list.regular.count()).toBe(0);
    await copilot.welcome.waitFor();

    await site.page.getByText('Archived (1)').click();
    await list.row('WSL').getByRole('button', { name: 'Unarchive' }).click();
    await expect.poll(() => list.regular.count()).toBe(1);

    await list.row('WSL').getByRole('button', { name: 'Rename' }).click();
    await site.page.getByRole('textbox', { name: 'New title' }).fill('Windows setup');
    await site.page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => list.regular.first().innerText()).toContain('Windows setup');
    await site.page.reload();
    await expect.poll(() => list.regular.first().innerText()).toContain('Windows setup');
  });
});

describe('search', () => {
  it('offers "Ask Dev Copilot" for a query without results, and asks it', async () => {
    await site.open('/dev-flow/');
    await site.search('qwxzvbnmplk');
    const ask = site.page.getByTestId('ask-copilot-from-search');
    await ask.click();
    await copilot.popover.waitFor();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toBe('qwxzvbnmplk');
    expect(await copilot.lastAnswer.innerText()).toContain('does not seem to cover');
  });

  it('makes the same offer on the /search page', async () => {
    await site.open('/search?q=qwxzvbnmplk');
    const ask = site.page.getByTestId('ask-copilot-from-search');
    await ask.click();
    await copilot.popover.waitFor();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toBe('qwxzvbnmplk');
  });
});

describe('accessibility', () => {
  it('has no serious or critical axe-core violations in the open widget, and names every button', async () => {
    await site.open('/firestore-ttl');
    await copilot.open();
    await copilot.ask('How do I create a TTL policy for expireAt in Firestore?');
    await copilot.waitForAnswer(1);
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated through the DevTools protocol, so the page's CSP stays untouched.
    await site.page.evaluate(axeSource);
    const axeViolations = () =>
      site.page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> };
          }
        ).axe;
        const result = await axe.run({ include: [['[data-testid="copilot-popover"]']] }, {});
        return (result.violations as Array<{ id: string; impact: string; nodes: unknown[] }>)
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id} (${violation.nodes.length})`);
      });
    expect(await axeViolations()).toEqual([]);
    // The same in the dark theme (it follows the system setting), contrast included.
    await site.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => site.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // Infima animates link colours: measure again until the switch has finished.
    await expect.poll(axeViolations, { timeout: 5000 }).toEqual([]);
    const unnamed = await copilot.popover
      .locator('button')
      .evaluateAll(
        (buttons) =>
          buttons.filter((button) => !(button.getAttribute('aria-label') || button.textContent?.trim())).length,
      );
    expect(unnamed).toBe(0);
  });

  it('shows a tooltip on keyboard focus and turns the chat into a full-screen sheet below 996 px', async () => {
    await site.page.setViewportSize({ width: 800, height: 700 });
    await site.open('/');
    await copilot.open();
    const box = await copilot.popover.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 800, height: 700 });
    await site.page.getByRole('button', { name: 'Attach file' }).focus();
    await expect.poll(() => site.page.getByRole('tooltip').innerText()).toBe('Attach file');
    // The sheet covers the launcher, so it closes from its own header.
    await copilot.popover.getByRole('button', { name: 'Close', exact: true }).click();
    await copilot.popover.waitFor({ state: 'detached' });
    await copilot.launcher.click();
    await copilot.composerInput.waitFor();
  });
});
