import { describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { SignInPages, saveScreenshot } from './pages/sign-in-pages';

const test = base.extend('signInPages', async ({ page }) => new SignInPages(page));

/** The allow-list beyond the two primary domains (the test defaults), which no refusal may reveal. */
const unnamedEntries = ['acme-labs.dev', 'acme.studio', 'example.com', 'example.org', 'example.net'];

describe('a refused account is told which rule refused it and what to do', () => {
  test('a company address that Google has not verified', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/faqs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('dev@acme.dev', { verified: false });
    const notice = await signInPages.notAllowedNotice.innerText();
    await saveScreenshot(page, 'refusal-not-verified');
    expect(notice).toBe(
      'You are signed in as dev@acme.dev, but Google has not verified that this address belongs to the account, so it cannot be let in. Sign in with your company Google account, or verify the address in your Google account and try again.',
    );
    // Not "log in with an account from @acme.dev", which this already is.
    expect(await signInPages.gateMessage.innerText()).toBe(
      'You must log in with a company-managed account from @acme.dev or @acme.io to access the internal documentation.',
    );
    expect(await page.locator('article').count()).toBe(0);
  });

  test('a personal Google account that uses a company address', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/faqs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('dev@acme.dev', { workspace: false });
    const notice = await signInPages.notAllowedNotice.innerText();
    await saveScreenshot(page, 'refusal-personal-account');
    expect(notice).toContain(
      'You are signed in as dev@acme.dev with a personal Google account that uses a company address.',
    );
    expect(notice).toContain('choose your company account with "Use another account"');
    expect(notice).not.toContain('not allowed');
    expect(await signInPages.gateMessage.innerText()).toContain('a company-managed account from @acme.dev or @acme.io');
    expect(await page.getByTestId('gate-login').innerText()).toBe('Use another account');
  });

  test('a domain not on the list, without revealing the rest of the list', async ({ server, page, signInPages }) => {
    await page.goto(`${server.baseUrl}/faqs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@gmail.com');
    const notice = await signInPages.notAllowedNotice.innerText();
    await saveScreenshot(page, 'refusal-domain');
    expect(notice).toBe(
      'You are signed in as someone@gmail.com, whose domain is not allowed to read the handbook. Choose your company account with "Use another account".',
    );
    expect(await signInPages.gateMessage.innerText()).toBe(
      'You must log in with an account from @acme.dev or @acme.io to access the internal documentation.',
    );
    const html = await page.content();
    for (const entry of unnamedEntries) expect(html).not.toContain(entry);
  });

  test('doesNotConfirmUnnamedAllowedDomains: a personal account at a domain on the list the page does not name', async ({
    server,
    page,
    signInPages,
  }) => {
    await page.goto(`${server.baseUrl}/faqs/`);
    await signInPages.clickLogin();
    await signInPages.submitIdentity('someone@acme-labs.dev', { workspace: false });
    // Word for word what a domain not on the list is told: the page confirms no domain it does not name.
    expect(await signInPages.notAllowedNotice.innerText()).toBe(
      'You are signed in as someone@acme-labs.dev, whose domain is not allowed to read the handbook. Choose your company account with "Use another account".',
    );
    expect(await signInPages.gateMessage.innerText()).toBe(
      'You must log in with an account from @acme.dev or @acme.io to access the internal documentation.',
    );
    expect(await signInPages.notAllowedNotice.getAttribute('data-refusal')).toBe('not-on-allow-list');
    const html = await page.content();
    for (const entry of unnamedEntries.filter((entry) => entry !== 'acme-labs.dev')) expect(html).not.toContain(entry);
  });
});
