import { expect } from 'vitest';
import { startBeforeTests, test } from './copilot-page-support';

/** Reaching Dev Copilot without tabbing through the page, and a layout where nothing covers or clips anything. */

startBeforeTests();

test('opens and closes Dev Copilot with Ctrl+I, shown in the launcher tooltip; Ctrl+K stays the search', async ({
  reader: { site, copilot },
}) => {
  await site.open('/firestore-ttl');
  expect(await copilot.launcher.getAttribute('title')).toBe('Open Dev Copilot (Ctrl+I)');
  await site.page.keyboard.press('Control+k');
  expect(await site.searchInput.evaluate((input) => input === document.activeElement)).toBe(true);
  await site.page.keyboard.press('Escape');
  expect(await copilot.popover.count()).toBe(0);

  await site.page.keyboard.press('Control+i');
  await copilot.composerInput.waitFor();
  await expect.poll(() => copilot.composerInput.evaluate((input) => input === document.activeElement)).toBe(true);
  await site.page.keyboard.press('Control+i');
  await copilot.popover.waitFor({ state: 'detached' });
  await site.page.keyboard.press('Control+i');
  await copilot.composerInput.waitFor();
});

test('keeps the last table-of-contents entries clear of the launcher', async ({ reader: { site, copilot } }) => {
  await site.page.setViewportSize({ width: 1280, height: 700 });
  await site.open('/acme-react-app-artifacts/');
  await site.page.mouse.wheel(0, 800);
  const toc = site.tableOfContents;
  await toc.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  const launcher = await copilot.launcher.boundingBox();
  const last = await toc.locator('a').last().boundingBox();
  const box = await toc.boundingBox();
  if (!launcher || !last || !box) throw new Error('launcher or table of contents not laid out');
  expect(last.y + last.height).toBeLessThanOrEqual(launcher.y);
  expect(box.y + box.height).toBeLessThanOrEqual(launcher.y);
});

test('shows the whole handbook title beside the search on a 390 px phone', async ({ reader: { site } }) => {
  await site.page.setViewportSize({ width: 390, height: 844 });
  await site.open('/firestore-ttl');
  const title = site.page.locator('.navbar__inner .navbar__title');
  const [titleBox, searchBox] = await Promise.all([title.boundingBox(), site.searchInput.boundingBox()]);
  if (!titleBox || !searchBox) throw new Error('navbar not laid out');
  expect(titleBox.x + titleBox.width).toBeLessThanOrEqual(searchBox.x);
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  // Tapped, the search takes the navbar's width to type in.
  await site.searchInput.click();
  expect((await site.searchInput.boundingBox())?.width ?? 0).toBeGreaterThan(300);
  await site.page.keyboard.type('ttl');
  await site.suggestions.first().waitFor();
});

test('darkens the announcement bar with the dark theme', async ({ reader: { site } }) => {
  await site.page.emulateMedia({ colorScheme: 'dark' });
  await site.open('/firestore-ttl');
  const background = await site.announcementBar.evaluate((bar) => getComputedStyle(bar).backgroundColor);
  const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  expect(Math.max(...channels), background).toBeLessThan(80);
});

test('titles the not-found page and names the missing address', async ({ reader: { site } }) => {
  const response = await site.open('/firestore-ttl-policies');
  expect(response?.status()).toBe(404);
  expect(await site.page.title()).toBe('Page Not Found | Acme Developer Handbook');
  await expect.poll(() => site.page.locator('main').innerText()).toContain('/firestore-ttl-policies');
  await site.page.getByRole('link', { name: 'Search the handbook for “firestore ttl policies”' }).waitFor();
});
