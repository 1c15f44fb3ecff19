import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** A section an answer cites, opened from the chat on a wide screen, reads whole beside the chat that stays open. */

startBeforeTests();

test("the cited section's text lies left of the open chat, not under it", async ({ reader: { site, copilot } }) => {
  await site.page.setViewportSize({ width: 1280, height: 800 });
  await copilot.askFirstOn(site, '/', 'cloudflare tunnel 502 bad gateway');
  const source = copilot.lastAnswer.getByTestId('copilot-sources').getByRole('link').first();
  expect(await source.getAttribute('href')).toBe('/cloudflare-tunnel#502-bad-gateway');

  await source.click();
  await site.page.waitForURL('**/cloudflare-tunnel#502-bad-gateway');
  await site.page.locator('[id="502-bad-gateway"]').waitFor();

  expect(await copilot.popover.isVisible()).toBe(true);
  const { text, chat } = await site.page.evaluate(() => ({
    text: document.querySelector('main article')?.getBoundingClientRect().right,
    chat: document.querySelector('[data-testid="copilot-popover"]')?.getBoundingClientRect().left,
  }));
  expect(text).toBeLessThanOrEqual(chat ?? 0);
});
