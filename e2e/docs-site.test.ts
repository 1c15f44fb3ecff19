import type { Response } from 'playwright-core';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { holdRequests } from './held-requests';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';
import { topNavigation } from './spec-routes';

// The file's server, session and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ sessionCookie, browser }) => {
  expect(sessionCookie).toContain('acme_session=');
  expect(browser.isConnected()).toBe(true);
});

describe('search', () => {
  test('Ctrl+K focuses the search box and shows at most 8 suggestions, each with its path', async ({
    docsSite: site,
  }) => {
    await site.open('/dev-flow/');
    await site.page.keyboard.press('Control+k');
    expect(await site.page.evaluate(() => document.activeElement?.classList.contains('navbar__search-input'))).toBe(
      true,
    );
    await site.page.keyboard.type('firestore');
    await site.suggestions.first().waitFor();
    const count = await site.suggestions.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(8);
    const paths = await site.suggestions.evaluateAll((options) =>
      options.map((option) => option.querySelector('[class*="hitPath"]')?.textContent?.trim() ?? ''),
    );
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).not.toBe('');
  });

  test('says "No results" for nonsense', async ({ docsSite: site }) => {
    await site.open('/');
    await site.search('qwxzvbnmplk');
    await expect.poll(() => site.searchDropdown.innerText()).toContain('No results');
  });

  test('"See all results" leads to /search?q=...', async ({ docsSite: site }) => {
    await site.open('/');
    await site.search('webhook');
    await site.suggestions.first().waitFor();
    await site.searchDropdown.getByText('See all results').click();
    await site.page.waitForURL(/\/search\/?\?q=webhook/, { waitUntil: 'commit' });
    const results = site.page.getByTestId('search-result');
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    await expect.poll(() => results.first().innerText()).toMatch(/webhook/i);
  });

  test('marks the matched words and moves through suggestions with the arrows; Enter opens the chosen one', async ({
    docsSite: site,
  }) => {
    await site.open('/');
    await site.search('ttl policy');
    await site.suggestions.first().waitFor();
    expect(await site.suggestions.first().locator('mark').count()).toBeGreaterThan(0);
    await site.page.keyboard.press('ArrowDown');
    await site.page.keyboard.press('ArrowDown');
    const second = site.suggestions.nth(1);
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
    expect(await site.searchInput.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    expect(await site.searchInput.evaluate((input) => input === document.activeElement)).toBe(true);
    // Each suggestion is itself the link to its page's section, with nothing else to operate inside it.
    const target = await second.getAttribute('href');
    await site.page.keyboard.press('Enter');
    await site.page.waitForURL((url) => `${url.pathname}${url.hash}` === target, { waitUntil: 'commit' });
    expect(await site.searchDropdown.count()).toBe(0);
  });

  test('a click on a suggestion opens its page at the section it found', async ({ docsSite: site }) => {
    await site.open('/');
    // The suggestions change at every letter typed: the third is read once the whole query's answer is in.
    const answered = site.page.waitForResponse(
      (response) =>
        response.url().includes('/api/search?') && new URL(response.url()).searchParams.get('q') === 'ttl policy',
    );
    await site.search('ttl policy');
    const { results } = (await (await answered).json()) as { results: Array<{ url: string }> };
    const target = results[2]?.url;
    expect(target).toBeDefined();
    const third = site.suggestions.nth(2);
    await expect.poll(() => third.getAttribute('href')).toBe(target);
    await third.click();
    await site.page.waitForURL((url) => `${url.pathname}${url.hash}` === target, { waitUntil: 'commit' });
    expect(await site.searchDropdown.count()).toBe(0);
  });

  test('finds the right page for a question typed as a sentence, and Escape closes the suggestions', async ({
    docsSite: site,
  }) => {
    await site.open('/');
    await site.search('hey, how do I register a new gitlab runner for CI?');
    await expect
      .poll(async () =>
        (await site.suggestions.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).slice(0, 3).join(' '),
      )
      .toContain('/setting-up-gitlab-runner');
    await site.page.keyboard.press('Escape');
    expect(await site.searchDropdown.count()).toBe(0);
  });

  test('offers "See all results in" the folder of the page, and the results page keeps q, ctx and version', async ({
    docsSite: site,
  }) => {
    await site.open('/Workshops/shopify-market-sharing-2025');
    await site.search('shopify');
    await site.suggestions.first().waitFor();
    await site.searchDropdown.getByText('See all results in Workshops').click();
    await site.page.waitForURL(/\/search\?q=shopify&ctx=%2FWorkshops%2F/, { waitUntil: 'commit' });
    // The results page's own hits (the doc page's articles may still be on screen just after the URL changed).
    const links = site.page.locator('[data-testid="search-result"] h2 a');
    await expect.poll(() => links.count()).toBeGreaterThan(0);
    for (const href of await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))) {
      expect(href.startsWith('/Workshops/')).toBe(true);
    }
    await site.open('/search?q=firestore%20ttl&version=current');
    await expect.poll(() => site.page.getByTestId('search-result').count()).toBeGreaterThan(0);
    await site.page.getByRole('searchbox', { name: 'Search the handbook' }).last().fill('gitlab runner');
    await site.page.waitForURL(/\/search\?q=gitlab\+runner&version=current/, { waitUntil: 'commit' });
  });

  test('lets Tab reach the links under the suggestions, and announces how many there are', async ({
    docsSite: site,
  }) => {
    await site.open('/');
    await site.search('ttl policy');
    await site.suggestions.first().waitFor();
    await expect
      .poll(() => site.page.locator('[aria-live="polite"]').first().innerText())
      .toMatch(/^\d+ suggestions?$/);
    await site.page.keyboard.press('Tab');
    expect(await site.page.evaluate(() => document.activeElement?.textContent)).toBe('See all results');
    expect(await site.searchDropdown.count()).toBe(1);
  });

  test('says "Searching…" on /search, politely, until the results arrive', async ({ docsSite: site }) => {
    const letSearchThrough = await holdRequests(site.page, '**/api/search?*');
    await site.open('/search?q=webhook');
    const status = site.page.getByTestId('search-status');
    await expect.poll(() => status.innerText()).toBe('Searching…');
    expect(await status.getAttribute('aria-live')).toBe('polite');
    letSearchThrough();
    await expect.poll(() => site.page.getByTestId('search-result').count()).toBeGreaterThan(0);
    expect(await status.innerText()).toBe('');
  });

  test('survives a malformed folder in the results page address', async ({ docsSite: site }) => {
    await site.open('/search?q=ttl&ctx=%25E0');
    await expect.poll(() => site.page.getByTestId('search-result').count()).toBeGreaterThan(0);
    expect(await site.page.getByText('This page crashed.').count()).toBe(0);
  });

  test('downloads no search index: each search is one small answer from the server', async ({ docsSite: site }) => {
    const addresses: string[] = [];
    const bodies: Array<Promise<number | undefined>> = [];
    const onResponse = (response: Response) => {
      if (!/search-index|lunr|\/api\/search\?/.test(response.url())) return;
      addresses.push(response.url());
      // A typed-over suggestion's answer may be dropped by the page before its body is read: that one is not measured.
      bodies.push(
        response.body().then(
          (body) => body.length,
          () => undefined,
        ),
      );
    };
    site.page.on('response', onResponse);
    await site.open('/');
    await site.search('firestore');
    await site.suggestions.first().waitFor();
    await expect.poll(() => addresses.length).toBeGreaterThan(0);
    site.page.off('response', onResponse);
    for (const address of addresses) expect(address).toContain('/api/search?');
    const measured = (await Promise.all(bodies)).filter((bytes) => bytes !== undefined);
    expect(measured.length).toBeGreaterThan(0);
    for (const bytes of measured) expect(bytes).toBeLessThan(30_000);
  });
});

describe('layout', () => {
  test('shows the four top navigation links of the spec', async ({ docsSite: site }) => {
    await site.open('/');
    for (const link of topNavigation) {
      const anchor = site.page.locator('.navbar__items a.navbar__link', { hasText: link.label });
      expect(decodeURI((await anchor.getAttribute('href')) ?? '')).toBe(link.path);
    }
  });

  test('keeps the chosen theme across a reload', async ({ docsSite: site }) => {
    await site.open('/');
    // Light or dark: one click on a light system turns the page dark (Docusaurus's own toggle went to "light" first).
    expect(await site.theme()).toBe('light');
    await site.themeToggle.click();
    const chosen = await site.theme();
    expect(chosen).toBe('dark');
    await site.page.reload();
    await site.page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await site.theme()).toBe(chosen);
  });

  // Regression: CSS cascade layers once let Infima's default blue override the handbook's own colours.
  test('uses the handbook green, not Infima blue, in light and dark', async ({ docsSite: site, browser, server }) => {
    const primary = (page: DocsSite) =>
      page.page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--ifm-color-primary').trim(),
      );
    await site.open('/');
    expect(await primary(site)).toBe('#2f6f4f');
    const dark = await browser.newContext({ colorScheme: 'dark' });
    await signInContext(dark, server.baseUrl);
    const darkSite = new DocsSite(await dark.newPage(), server.baseUrl);
    await darkSite.open('/');
    expect(await primary(darkSite)).toBe('#5fc792');
    await dark.close();
  });

  test('follows the system colour scheme until the reader chooses', async ({ browser, server }) => {
    const dark = await browser.newContext({ colorScheme: 'dark' });
    await signInContext(dark, server.baseUrl);
    const darkSite = new DocsSite(await dark.newPage(), server.baseUrl);
    await darkSite.open('/');
    expect(await darkSite.theme()).toBe('dark');
    await darkSite.themeToggle.click();
    expect(await darkSite.theme()).toBe('light');
    await dark.close();
  });

  test('opens the sidebar as a mobile menu at 800 px and closes it on navigation', async ({ docsSite: site }) => {
    await site.page.setViewportSize({ width: 800, height: 900 });
    await site.open('/dev-flow/');
    await site.mobileMenuButton.click();
    await site.mobileSidebar.waitFor({ state: 'visible' });
    await site.mobileSidebar.locator('a.menu__link[href="/development-onboarding/"]').click();
    await site.page.waitForURL(/\/development-onboarding\/$/, { waitUntil: 'commit' });
    await expect.poll(() => site.page.locator('.navbar-sidebar--show').count()).toBe(0);
  });

  test('remembers a dismissed announcement bar after a reload', async ({ docsSite: site }) => {
    await site.open('/');
    await site.announcementBar.waitFor();
    await site.announcementBar.getByRole('button', { name: /close/i }).click();
    await expect.poll(() => site.announcementBar.count()).toBe(0);
    await site.page.reload();
    await site.page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await site.announcementBar.count()).toBe(0);
  });

  test('shows the not-found page for an unknown path', async ({ docsSite: site }) => {
    const response = await site.open('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect.poll(() => site.page.locator('main').innerText()).toContain('Page Not Found');
  });

  test('lists h2 and h3 headings in the table of contents, but not h4', async ({ docsSite: site }) => {
    await site.open('/coding-standard/');
    const headings = await site.page.evaluate(() =>
      ['h2', 'h3', 'h4'].map((level) =>
        [...document.querySelectorAll(`article .markdown ${level}[id]`)].map((heading) => heading.id),
      ),
    );
    const [h2, h3, h4] = headings as [string[], string[], string[]];
    expect(h4.length).toBeGreaterThan(0);
    const tocTargets = (await site.tableOfContents
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')?.slice(1) ?? ''))) as string[];
    expect(tocTargets).toEqual(expect.arrayContaining([...h2, ...h3]));
    for (const id of h4) expect(tocTargets).not.toContain(id);
  });

  test.for<[string, string]>([
    ['/coding-standard/index.html', '/coding-standard/'],
    ['/backend-dev-rdr.html', '/backend-dev-rdr'],
  ])('lands %s on %s', async ([requested, expected], { docsSite: site }) => {
    await site.open(requested);
    expect(new URL(site.page.url()).pathname).toBe(expected);
    await expect.poll(() => site.page.locator('article h1').count()).toBe(1);
  });

  test('shows the 2025 copyright in the footer', async ({ docsSite: site }) => {
    await site.open('/');
    expect(await site.page.locator('.footer__copyright').innerText()).toContain('2025');
  });
});
