import { escapeHtml, renderPage } from './html.js';
import { type AccessRefusal, needsCompanyManagedAccount, refusalHtml, refusalShown } from './refusals.js';
import { returnAnchorScript } from './return-anchor.js';

/** Why the last sign-in did not work, in words a reader can act on. */
export const signInProblems = {
  cancelled: 'Sign-in was cancelled. You can try again whenever you are ready.',
  expired: 'That sign-in attempt expired or was started in another browser tab. Please sign in again.',
  'state-mismatch':
    'That sign-in response did not match the attempt this browser started, so it was refused. Please sign in again.',
  'provider-unavailable': 'The sign-in service could not be reached. Please try again in a minute.',
  'no-email': 'The sign-in service did not share an e-mail address, so access could not be checked.',
  'non-ascii-email':
    'This account’s address has characters outside plain ASCII (letters a-z, digits, punctuation), which the handbook does not accept. Sign in with your company account.',
  failed: 'Sign-in did not complete. Please try again.',
  'too-many-attempts': 'Too many sign-in attempts from this network. Please wait a minute, then sign in again.',
} as const;

export type SignInProblem = keyof typeof signInProblems;

export type SignInPageOptions = {
  primaryDomains: readonly string[];
  /** Where the Login button sends the reader back to after sign-in. */
  returnPath: string;
  /** Set when someone is signed in but the policy does not allow them, with the rule that refused them. */
  signedInAs?: { email: string; refusal: AccessRefusal } | undefined;
  problem?: SignInProblem | undefined;
  developmentSignIn: boolean;
};

/** The return path as the login link carries it (its `next` parameter), before HTML escaping. */
const encodedNext = (returnPath: string) => new URLSearchParams({ next: returnPath }).toString().slice('next='.length);

function loginHref(returnPath: string, switchAccount: boolean): string {
  const query = new URLSearchParams({ next: returnPath });
  if (switchAccount) query.set('switch', '1');
  return `/auth/login?${query.toString()}`;
}

/** Where the Sign out button posts: signing out reloads the page the person was on, now signed out. */
const signOutAction = (returnPath: string) => `/auth/logout?${new URLSearchParams({ next: returnPath }).toString()}`;

/** The only page a reader without an allowed session ever sees: no doc text, no route list. */
export function renderSignInPage(options: SignInPageOptions): string {
  const [first = '', second = ''] = options.primaryDomains.map((domain) => `@${domain}`);
  const domains = `<strong>${escapeHtml(first)}</strong> or <strong>${escapeHtml(second)}</strong>`;
  const problem = options.problem
    ? `<p class="notice error" role="alert" data-testid="gate-error">${escapeHtml(signInProblems[options.problem])}</p>`
    : '';
  const { signedInAs } = options;
  const refusal = signedInAs && refusalShown(signedInAs.refusal, signedInAs.email, options.primaryDomains);
  const notAllowed =
    signedInAs && refusal
      ? `<p class="notice warning" role="alert" data-testid="gate-not-allowed" data-refusal="${refusal}">${refusalHtml(refusal, signedInAs.email)}</p>`
      : '';
  // A company address refused for its kind of account is told to use the company's own account, not "an account from
  // @acme.dev", which it already is.
  const account = refusal && needsCompanyManagedAccount(refusal) ? 'a company-managed account' : 'an account';
  const primaryAction = options.signedInAs
    ? `<a class="button" href="${escapeHtml(loginHref(options.returnPath, true))}" data-testid="gate-login">Use another account</a>
<form method="post" action="${escapeHtml(signOutAction(options.returnPath))}"><button class="button secondary" type="submit" data-testid="gate-logout">Sign out</button></form>`
    : `<a class="button" href="${escapeHtml(loginHref(options.returnPath, false))}" data-testid="gate-login">Login with Google</a>`;
  // A refused account sees two buttons (and Sign out opens no sign-in): the note names the one it means.
  const signInButton = options.signedInAs ? 'Use another account' : 'Login with Google';
  const development = options.developmentSignIn
    ? `<p class="muted">Development mode: "${signInButton}" opens the built-in development sign-in instead of Google.</p>`
    : '';
  return renderPage({
    title: 'Sign in - Acme Developer Handbook',
    body: `<h1>Acme Developer Handbook</h1>
${problem}${notAllowed}
<p data-testid="gate-message">You must log in with ${account} from ${domains} to access the internal documentation.</p>
${primaryAction}
${development}
<script>${returnAnchorScript}</script>`,
  });
}

/**
 * The sign-in page for any return path, rendered once: a request without a session, the commonest on a gated site,
 * only fills its return path in.
 */
export function signInPageTemplate(options: Omit<SignInPageOptions, 'returnPath'>): (returnPath: string) => string {
  const placeholder = 'RETURN-PATH-PLACEHOLDER';
  const [before = '', after = ''] = renderSignInPage({ ...options, returnPath: placeholder }).split(placeholder);
  return (returnPath) => `${before}${escapeHtml(encodedNext(returnPath))}${after}`;
}
