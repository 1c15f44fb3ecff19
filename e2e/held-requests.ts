import type { Page } from 'playwright-core';

/**
 * Holds the page's requests to `url` (only those of `method`, when given) until the returned function is called, then
 * lets them through: a slow network the test controls.
 */
export async function holdRequests(page: Page, url: string, method?: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    if (method === undefined || route.request().method() === method) await held;
    await route.continue();
  });
  return release;
}
