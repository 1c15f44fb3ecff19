import type { BrowserContext, Page } from 'playwright-core';
import { signIn } from '../sign-in';

/** The gate page and the development IdP's form, as a reader meets them in the browser. */
export class SignInPages {
  constructor(readonly page: Page) {}

  get gateMessage() {
    return this.page.getByTestId('gate-message');
  }

  get notAllowedNotice() {
    return this.page.getByTestId('gate-not-allowed');
  }

  get gateError() {
    return this.page.getByTestId('gate-error');
  }

  /** Everything the browser refuses under our Content-Security-Policy from now on. */
  recordPolicyViolations(): string[] {
    const violations: string[] = [];
    this.page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
        violations.push(message.text());
      }
    });
    return violations;
  }

  async clickLogin() {
    await this.page.getByTestId('gate-login').click();
    await this.page.locator('input[type=email]').waitFor();
  }

  /** Fills the development IdP's form (a verified Google Workspace account unless told otherwise); returns once the browser has left the IdP. */
  async submitIdentity(email: string, options: { verified?: boolean; workspace?: boolean } = {}) {
    await this.page.locator('input[type=email]').fill(email);
    const verified = this.page.locator('input[name=verified]');
    if ((options.verified ?? true) !== (await verified.isChecked())) await verified.click();
    const workspace = this.page.locator('input[name=workspace]');
    if ((options.workspace ?? true) !== (await workspace.isChecked())) await workspace.click();
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.waitForURL((url) => !url.pathname.startsWith('/dev-idp/'), { waitUntil: 'commit' });
  }
}

/** Gives a browser context an allowed session made by the real sign-in flow (over HTTP, to save time). */
export async function signInContext(context: BrowserContext, baseUrl: string, email = 'reader@acme.dev') {
  const { jar } = await signIn(baseUrl, { email });
  const session = jar.get('acme_session');
  if (!session) throw new Error(`Signing in ${email} gave no session cookie.`);
  await context.addCookies([{ name: 'acme_session', value: session, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
}

/** Saves a screenshot for a person to look at when E2E_SCREENSHOT_DIR is set (a folder outside the repository). */
export async function saveScreenshot(page: Page, name: string) {
  const directory = process.env.E2E_SCREENSHOT_DIR;
  if (directory) await page.screenshot({ path: `${directory}/${name}.png` });
}
