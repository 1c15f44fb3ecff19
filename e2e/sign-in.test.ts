import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type TestServer } from './harness';
import { SignInPages } from './pages/sign-in-pages';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let signInPages: SignInPages;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
  signInPages = new SignInPages(page);
});
afterEach(async () => {
  await context.close();
});

describe('signing in through the development IdP in a browser', () => {
  it('shows the gate to a signed-out reader, naming the two primary domains', async () => {
    const response = await page.goto(`${server.baseUrl}/faqs/`);
    expect(response?.status()).toBe(401);
    expect(await signInPages.gateMessage.innerText()).toBe(
      'You must log in with an account from @acme.dev or @acme.io to access the internal documentation.',
    );
    expect(await page.getByTestId('gate-login').innerText()).toBe('Login with Google');
  });

  it('lets an allowed address in, back on the page it asked for', async () => {
    await page.goto(`${server.baseUrl}/firestore-ttl`);
    await signInPages.clickLogin();
    expect(await page.getByText('For development only.').count()).toBe(1);
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(new URL(page.url()).pathname).toBe('/firestore-ttl');
    expect(await page.locator('article h1').innerText()).toBe('Firestore TTL');
  });

  it('lets a whitelisted address in', async () => {
    await page.goto(`${server.baseUrl}/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('alex.partner@example.com');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await page.locator('article h1').innerText()).toContain('Welcome');
  });

  it('keeps a not-allowed address at the gate, showing which account it is', async () => {
    await page.goto(`${server.baseUrl}/coding-standard/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    expect(await signInPages.notAllowedNotice.innerText()).toContain('signed in as someone@gmail.com');
    expect(await page.locator('article').count()).toBe(0);
    expect(await page.getByTestId('gate-login').innerText()).toBe('Use another account');
  });

  it('switches from a not-allowed account to an allowed one', async () => {
    await page.goto(`${server.baseUrl}/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.io');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await page.locator('article h1').count()).toBe(1);
  });

  it('says so when the reader cancels at the IdP', async () => {
    await page.goto(`${server.baseUrl}/`);
    await signInPages.clickLogin();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback', { waitUntil: 'commit' });
    expect(await signInPages.gateError.innerText()).toContain('Sign-in was cancelled');
  });

  it('logs out from the navbar and returns to the gate', async () => {
    await page.goto(`${server.baseUrl}/dev-flow/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    await page.getByTestId('logout').click();
    await signInPages.gateMessage.waitFor();
    expect(new URL(page.url()).pathname).toBe('/dev-flow/');
    const me = await page.evaluate(() => fetch('/api/me').then((response) => response.status));
    expect(me).toBe(401);
  });

  it('shows the sign-in prompt when the session ends while the page is open', async () => {
    await page.clock.install();
    await page.goto(`${server.baseUrl}/koajs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    const session = (await context.cookies()).find((cookie) => cookie.name === 'acme_session');
    // Signed out elsewhere (another tab, or an admin): the server forgets the session; this page is still open.
    const logout = await fetch(`${server.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { origin: server.baseUrl, cookie: `acme_session=${session?.value}` },
    });
    expect(logout.status).toBe(204);
    await page.clock.fastForward('02:00');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const gate = page.getByTestId('auth-gate');
    await gate.waitFor();
    expect(await gate.innerText()).toContain('Your session has ended');
    expect(await gate.getByRole('link', { name: 'Login with Google' }).getAttribute('href')).toBe(
      '/auth/login?next=%2Fkoajs%2F',
    );
  });
});
