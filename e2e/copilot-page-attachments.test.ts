import type { TurnRequest } from '@acme/contract';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** Screenshots given to Dev Copilot: attached, pasted or dropped, previewed, sent with the question, refused. */

startBeforeTests();

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

async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach file' }).click();
  await (await chooser).setFiles(files);
}

test('sends a screenshot with the question as base64, shows it, and previews it in a dialog', async ({
  reader: { site, copilot },
}) => {
  const turns: TurnRequest[] = [];
  site.page.on('request', (request) => {
    if (request.url().endsWith('/api/turns')) turns.push(request.postDataJSON() as TurnRequest);
  });
  await site.open('/');
  await copilot.open();
  const png = await errorScreenshot(site.page);
  await attach(site.page, [{ name: 'error.png', mimeType: 'image/png', buffer: png }]);
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
  expect(turns).toHaveLength(1);
  expect(turns[0]).toMatchObject({ parentId: null, text: 'What does this error mean?', page: '/' });
  const sent = turns[0]?.attachments?.[0];
  expect(sent).toMatchObject({ type: 'image', contentType: 'image/png', name: 'error.png' });
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

test('refuses a 6 MB image and a PDF before upload, and lets a waiting image be removed', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  await attach(site.page, [{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024, 1) }]);
  await expect.poll(() => copilot.attachmentError.innerText()).toContain('at most 5 MB');
  await attach(site.page, [{ name: 'spec.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
  await expect.poll(() => copilot.attachmentError.innerText()).toContain('not an image');
  expect(await site.page.getByTestId('copilot-attachment').count()).toBe(0);

  await attach(site.page, [{ name: 'shot.png', mimeType: 'image/png', buffer: await errorScreenshot(site.page) }]);
  await site.page.getByTestId('copilot-attachment').waitFor();
  expect(await copilot.attachmentError.count()).toBe(0);
  await site.page.getByRole('button', { name: 'Remove file' }).click();
  await expect.poll(() => site.page.getByTestId('copilot-attachment').count()).toBe(0);
});

test('takes a screenshot pasted into the composer, and one dropped on it', async ({ reader: { site, copilot } }) => {
  await site.open('/');
  await copilot.open();
  const base64 = (await errorScreenshot(site.page)).toString('base64');
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

test('holds a question with more images than a question may carry until some are removed', async ({
  reader: { site, copilot },
}) => {
  await site.open('/');
  await copilot.open();
  const shot = await errorScreenshot(site.page);
  const images = Array.from({ length: 5 }, (_, index) => ({
    name: `shot-${index}.png`,
    mimeType: 'image/png',
    buffer: shot,
  }));
  await attach(site.page, images);
  await expect.poll(() => site.page.getByTestId('copilot-attachment').count()).toBe(5);
  await site.page.getByTestId('too-many-images').waitFor();
  expect(await copilot.sendButton.isDisabled()).toBe(true);

  await site.page.getByRole('button', { name: 'Remove file' }).first().click();
  await site.page.getByTestId('too-many-images').waitFor({ state: 'detached' });
  await copilot.composerInput.fill('What do these say?');
  expect(await copilot.sendButton.isDisabled()).toBe(false);
});

test('refuses a file named .png that is not an image as soon as it is attached, and never sends it', async ({
  reader: { site, copilot },
}) => {
  const turns: string[] = [];
  site.page.on('request', (request) => {
    if (request.url().endsWith('/api/turns')) turns.push(request.url());
  });
  await site.open('/');
  await copilot.open();
  await attach(site.page, [{ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') }]);
  // Said beside the composer at once, with no broken thumbnail waiting to be sent.
  await expect.poll(() => copilot.attachmentError.innerText()).toContain('broken.png is not really an image');
  expect(await site.page.getByTestId('copilot-attachment').count()).toBe(0);
  const composer = await site.page.getByTestId('copilot-composer').boundingBox();
  const notice = await copilot.attachmentError.boundingBox();
  expect(notice && composer && notice.y >= composer.y && notice.y < composer.y + composer.height).toBe(true);
  await copilot.ask('What does this screenshot say?');
  await copilot.waitForAnswer(1);
  expect(turns).toHaveLength(1);
  expect(await copilot.userMessages.first().getByTestId('copilot-attachment').count()).toBe(0);
});

test('sends a JPEG saved under a .png name as the JPEG it is', async ({ reader: { site, copilot } }) => {
  const sent: TurnRequest[] = [];
  site.page.on('request', (request) => {
    if (request.url().endsWith('/api/turns')) sent.push(request.postDataJSON() as TurnRequest);
  });
  await site.open('/');
  await copilot.open();
  const jpeg = await site.page.screenshot({ type: 'jpeg', clip: { x: 0, y: 0, width: 200, height: 100 } });
  await attach(site.page, [{ name: 'renamed.png', mimeType: 'image/png', buffer: jpeg }]);
  await site.page.getByTestId('copilot-composer').getByTestId('copilot-attachment').waitFor();
  await copilot.ask('What does this say?');
  await copilot.waitForAnswer(1);
  expect(sent[0]?.attachments?.[0]).toMatchObject({ contentType: 'image/jpeg', name: 'renamed.png' });
  expect(await copilot.lastAnswer.getByTestId('copilot-error').count()).toBe(0);
});

test('shows an image the server refused as an error, not as an answer to retry, rate, copy or read aloud', async ({
  reader: { site, copilot },
}) => {
  // A client that skipped the composer's check: the server's refusal is what the reader sees.
  await site.page.route('**/api/turns', async (route) => {
    const turn = route.request().postDataJSON() as TurnRequest;
    const attachments = turn.attachments?.map((image) => ({
      ...image,
      content: Buffer.from('not an image').toString('base64'),
    }));
    await route.continue({ postData: JSON.stringify({ ...turn, attachments }) });
  });
  await site.open('/');
  await copilot.open();
  await attach(site.page, [{ name: 'shot.png', mimeType: 'image/png', buffer: await errorScreenshot(site.page) }]);
  await site.page.getByTestId('copilot-composer').getByTestId('copilot-attachment').waitFor();
  await copilot.ask('What does this screenshot say?');
  const error = copilot.lastAnswer.getByTestId('copilot-error');
  await error.waitFor();
  const text = await error.innerText();
  expect(text).toContain('The image could not be read. Attach a PNG, JPEG, GIF or WebP.');
  expect(text).not.toMatch(/attachments\.\d|bytes/);
  for (const name of ['Retry', 'Copy', 'Read aloud', 'Refresh', 'Good response', 'Bad response']) {
    expect(await copilot.lastAnswer.getByRole('button', { name, exact: true }).count(), name).toBe(0);
  }
});
