import { describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { SignInPages, saveScreenshot } from './pages/sign-in-pages';

const test = base.extend('signInPages', async ({ page }) => new SignInPages(page));

/** A section link as readers paste it in chat. */
const sectionLink = '/firestore-ttl#turning-a-policy-off';

describe('a section link opened while signed out', () => {
  test('returns the reader to that section after sign-in, scrolled to its heading', async ({
    server,
    page,
    signInPages,
  }) => {
    const violations = signInPages.recordPolicyViolations();
    await page.goto(`${server.baseUrl}${sectionLink}`);
    await saveScreenshot(page, 'section-link-gate');
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}${landed.hash}`).toBe(`${server.baseUrl}${sectionLink}`);
    const heading = page.locator('#turning-a-policy-off');
    expect(await heading.innerText()).toContain('Turning a policy off');
    const box = await heading.boundingBox();
    // Below the sticky navbar, at the top of the window: the reader sees the section, not the page's title.
    expect(box?.y).toBeGreaterThan(0);
    expect(box?.y).toBeLessThan(200);
    await saveScreenshot(page, 'section-link-landed');
    expect(violations).toEqual([]);
  });

  test('keeps the section when a refused reader switches to another account', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}${sectionLink}`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    await signInPages.notAllowedNotice.waitFor();
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.io');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(new URL(page.url()).hash).toBe('#turning-a-policy-off');
  });

  test('stays on the site whatever the fragment says', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/firestore-ttl#//evil.example/%0d%0aSet-Cookie:x=1`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    const landed = new URL(page.url());
    expect(landed.origin).toBe(server.baseUrl);
    expect(landed.pathname).toBe('/firestore-ttl');
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('x');
  });

  test('still signs in without JavaScript, to the top of the page', async ({ server, browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const signInPages = new SignInPages(page);
      const response = await page.goto(`${server.baseUrl}${sectionLink}`);
      expect(response?.status()).toBe(401);
      expect(await page.getByTestId('gate-login').getAttribute('href')).toBe('/auth/login?next=%2Ffirestore-ttl');
      await signInPages.clickLogin();
      await signInPages.submitIdentity('reader@acme.dev');
      await page.waitForURL((url) => url.pathname === '/firestore-ttl', { waitUntil: 'commit' });
      expect(await page.locator('article h1').innerText()).toBe('Firestore TTL');
    } finally {
      await context.close();
    }
  });
});
