import { describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { SignInPages } from './pages/sign-in-pages';

const test = base.extend('signInPages', async ({ page }) => new SignInPages(page));

describe('signing in through the development IdP in a browser', () => {
  test('shows the gate to a signed-out reader, naming the two primary domains', async ({
    server,
    page,
    signInPages,
  }) => {
    const response = await page.goto(`${server.baseUrl}/faqs/`);
    expect(response?.status()).toBe(401);
    expect(await signInPages.gateMessage.innerText()).toBe(
      'You must log in with an account from @acme.dev or @acme.io to access the internal documentation.',
    );
    expect(await page.getByTestId('gate-login').innerText()).toBe('Login with Google');
  });

  test('lets an allowed address in, back on the page it asked for', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/firestore-ttl`);
    await signInPages.clickLogin();
    expect(await page.getByText('For development only.').count()).toBe(1);
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(new URL(page.url()).pathname).toBe('/firestore-ttl');
    expect(await page.locator('article h1').innerText()).toBe('Firestore TTL');
  });

  test('signs in a reader who opened the development server under another loopback name', async ({
    server,
    page,
    signInPages,
  }) => {
    // PUBLIC_URL names 127.0.0.1 here; the reader typed localhost. The attempt cookie must land on PUBLIC_URL's host.
    const alias = server.baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${alias}/firestore-ttl`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(page.url()).toBe(`${server.baseUrl}/firestore-ttl`);
    expect(await page.locator('article h1').innerText()).toBe('Firestore TTL');
  });

  test('lets a whitelisted address in', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('alex.partner@example.com');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await page.locator('article h1').innerText()).toContain('Welcome');
  });

  test('keeps a not-allowed address at the gate, showing which account it is', async ({
    server,
    page,
    signInPages,
  }) => {
    await page.goto(`${server.baseUrl}/coding-standard/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    expect(await signInPages.notAllowedNotice.innerText()).toContain('signed in as someone@gmail.com');
    expect(await page.locator('article').count()).toBe(0);
    expect(await page.getByTestId('gate-login').innerText()).toBe('Use another account');
  });

  test('switches from a not-allowed account to an allowed one', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.io');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    expect(await page.locator('article h1').count()).toBe(1);
  });

  test('says so when the reader cancels at the IdP, and a second try returns to their section', async ({
    server,
    page,
    signInPages,
  }) => {
    await page.goto(`${server.baseUrl}/koajs/#the-context-object`);
    await signInPages.clickLogin();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback', { waitUntil: 'commit' });
    expect(await signInPages.gateError.innerText()).toContain('Sign-in was cancelled');
    await signInPages.clickLogin();
    await signInPages.submitIdentity('reader@acme.dev');
    await page.waitForSelector('html[data-has-hydrated="true"]');
    const url = new URL(page.url());
    expect(`${url.pathname}${url.hash}`).toBe('/koajs/#the-context-object');
  });

  test('logs out from the navbar and returns to the gate', async ({ server, page, signInPages }) => {
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

  test('shows the sign-in prompt when the session ends while the page is open', async ({
    server,
    context,
    page,
    signInPages,
  }) => {
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
