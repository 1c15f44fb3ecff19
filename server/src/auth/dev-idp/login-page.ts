import { escapeHtml, renderPage } from '../html.js';

/** The development provider's sign-in form: any e-mail, verified or not, Workspace account or not. */
export function renderDevelopmentLoginPage(options: { action: string; problem?: string | undefined }): string {
  const problem = options.problem ? `<p class="notice error" role="alert">${escapeHtml(options.problem)}</p>` : '';
  return renderPage({
    title: 'Development sign-in',
    body: `<h1>Development sign-in</h1>
<p class="notice warning"><strong>For development only.</strong> This stands in for Google on a developer's machine and in tests. It never runs in production and checks no password.</p>
${problem}
<form method="post" action="${escapeHtml(options.action)}">
<label>E-mail address<input type="email" name="email" required autofocus autocomplete="email" placeholder="you@acme.dev"></label>
<label>Account id (optional)<input type="text" name="subject" autocomplete="off" placeholder="derived from the address"></label>
<p class="muted">The provider's <code>sub</code>. The same id with another address is one account whose address changed.</p>
<label class="checkbox"><input type="checkbox" name="verified" value="yes" checked> <span>The provider has verified this address (<code>email_verified</code>)</span></label>
<label class="checkbox"><input type="checkbox" name="workspace" value="yes" checked> <span>Google Workspace account (send the <code>hd</code> claim for company domains)</span></label>
<button class="button" type="submit" name="action" value="sign-in">Sign in</button>
<button class="button secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>`,
  });
}

/**
 * The form's step once it is over (Back after signing in or out, a form left open past its ten minutes): oidc-provider
 * no longer knows the interaction, and a new sign-in is the only way on. Started at /auth/login, as the sign-in page's
 * own button does.
 */
export function renderExpiredStepPage(): string {
  return renderPage({
    title: 'Development sign-in',
    testId: 'dev-idp-expired',
    body: `<h1>Development sign-in</h1>
<p class="notice warning" role="alert">This sign-in step has expired or was already used. Start again to sign in.</p>
<a class="button" href="/auth/login" data-testid="dev-idp-start-again">Sign in again</a>`,
  });
}
