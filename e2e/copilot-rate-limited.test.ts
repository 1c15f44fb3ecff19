import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** A question refused by the per-minute limit: Retry waits out the server's Retry-After, and says how long. */

startBeforeTests();

test('offers Retry only once the limit allows another question, counting down to it', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  let refused = 0;
  await site.page.route('**/api/turns', async (route) => {
    if (refused > 0) return route.continue();
    refused += 1;
    await route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      body: JSON.stringify({
        error: { code: 'rate_limited:ask', message: 'Too many questions: at most 20 a minute. Try again in 3 s.' },
      }),
    });
  });
  await copilot.ask('And how do I use WSL?');
  const error = copilot.popover.getByTestId('copilot-error');
  await error.waitFor();
  expect(await error.innerText()).toContain('Try again in 3 s.');
  const retry = error.getByRole('button', { name: /^Retry/ });
  expect(await retry.isDisabled()).toBe(true);
  expect(await retry.innerText()).toMatch(/^Retry in [1-3] s$/);
  await expect.poll(() => retry.innerText(), { timeout: 6000 }).toBe('Retry');
  expect(await retry.isDisabled()).toBe(false);
  await retry.click();
  await copilot.waitForAnswer(2);
  expect(refused).toBe(1);
});
