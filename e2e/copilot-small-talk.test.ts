import { describe, expect } from 'vitest';
import { test } from './fixtures';

test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

/** Small talk is answered in kind, and no notice outlives the message it was about. */
describe('small talk and notices in the widget (docs-only)', () => {
  test('answers "what is this?" and thanks without a verdict on the handbook, also after a reload', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('what is this?');
    await copilot.waitForAnswer(1);
    await copilot.ask('thanks!');
    await copilot.waitForAnswer(2);
    await copilot.ask('How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?');
    await copilot.waitForAnswer(3);

    const notes = () =>
      Promise.all([0, 1, 2].map((position) => copilot.confidenceNote(copilot.answers.nth(position)).count()));
    // Only the question the handbook does not cover is marked so.
    const shown = [0, 0, 1];
    expect(await notes()).toEqual(shown);
    expect(await copilot.answerText(copilot.answers.nth(0)).innerText()).toMatch(/^I am Dev Copilot/);
    expect(await copilot.answerText(copilot.answers.nth(1)).innerText()).toMatch(/^You're welcome!/);

    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(3);
    expect(await notes()).toEqual(shown);
  }, 60_000);

  test('clears why a file was refused once the reader sends a message, or attaches an image', async ({
    reader: { site, copilot },
  }) => {
    const pdf = { name: 'spec.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') };
    await site.open('/');
    await copilot.open();
    await copilot.attach([pdf]);
    await expect.poll(() => copilot.attachmentError.innerText()).toContain('not an image');

    await copilot.ask('How do I roll back a release?');
    await copilot.waitForAnswer(1);
    expect(await copilot.attachmentError.count()).toBe(0);

    await copilot.attach([pdf]);
    await copilot.attachmentError.waitFor();
    const png = await site.page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 200, height: 100 } });
    await copilot.attach([{ name: 'shot.png', mimeType: 'image/png', buffer: png }]);
    await site.page.getByTestId('copilot-composer').getByTestId('copilot-attachment').waitFor();
    expect(await copilot.attachmentError.count()).toBe(0);
  });
});
