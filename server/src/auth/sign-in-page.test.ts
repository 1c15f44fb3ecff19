import { describe, expect, it } from 'vitest';
import type { AccessRefusal } from './refusals.js';
import { renderSignInPage, signInPageTemplate } from './sign-in-page.js';

describe('signInPageTemplate', () => {
  const options = { primaryDomains: ['acme.dev', 'acme.io'], developmentSignIn: true };
  const template = signInPageTemplate(options);

  it.each(['/', '/firestore-ttl/', '/search?q=a&b=<c>', '/x"y\'z', '/RETURN-PATH-PLACEHOLDER'])(
    'gives the same page as rendering it for %s',
    (returnPath) => {
      expect(template(returnPath)).toBe(renderSignInPage({ ...options, returnPath }));
    },
  );

  it('names its one button in the development note', () => {
    expect(template('/')).toContain('Development mode: "Login with Google" opens the built-in development sign-in');
  });

  it('escapesReturnPathInLoginLink', () => {
    expect(template('/a"><script>alert(1)</script>')).not.toContain('<script>alert');
  });
});

describe('renderSignInPage for a refused account', () => {
  const render = (refusal: AccessRefusal, email = 'dev@acme.dev') =>
    renderSignInPage({
      primaryDomains: ['acme.dev', 'acme.io'],
      developmentSignIn: false,
      returnPath: '/',
      signedInAs: { email, refusal },
    });

  it.each<[AccessRefusal, string]>([
    ['email-not-verified', 'Google has not verified that this address belongs to the account'],
    ['hosted-domain-missing', 'a personal Google account that uses a company address'],
    ['hosted-domain-mismatch', 'through a Google organisation that is not the company’s'],
    ['not-on-allow-list', 'whose domain is not allowed'],
    ['malformed-email', 'not an e-mail address the handbook can check'],
  ])('says which rule refused it: %s', (refusal, why) => {
    const page = render(refusal);
    expect(page).toContain(why);
    expect(page).toContain('You are signed in as <strong>dev@acme.dev</strong>');
    expect(page).toContain('Use another account');
  });

  it('asks a company address refused for its kind of account for the company-managed one', () => {
    expect(render('hosted-domain-missing')).toContain('log in with a company-managed account from');
    expect(render('not-on-allow-list', 'a@gmail.com')).toContain('log in with an account from');
  });

  it.each<[AccessRefusal, string]>([
    ['hosted-domain-missing', 'someone@acme-labs.dev'],
    ['hosted-domain-mismatch', 'someone@acme-labs.dev'],
    ['hosted-domain-missing', 'someone@ACME.Studio'],
  ])('doesNotConfirmUnnamedAllowedDomains: %s at %s reads as a domain not on the list', (refusal, email) => {
    const page = render(refusal, email);
    const domain = email.slice(email.indexOf('@') + 1);
    expect(page).toBe(render('not-on-allow-list', email));
    expect(page).not.toContain('company address');
    expect(page).not.toContain('company-managed');
    expect(page).not.toContain(`data-refusal="${refusal}"`);
    expect(page).toContain(`@${domain}</strong>, whose domain is not allowed`);
  });

  it('names the button that opens the development sign-in, beside Sign out', () => {
    const page = renderSignInPage({
      primaryDomains: ['acme.dev', 'acme.io'],
      developmentSignIn: true,
      returnPath: '/',
      signedInAs: { email: 'you@gmail.com', refusal: 'not-on-allow-list' },
    });
    expect(page).toContain('Development mode: "Use another account" opens the built-in development sign-in');
    expect(page).not.toContain('the button');
  });

  it('escapes the address', () => {
    expect(render('not-on-allow-list', '<img src=x onerror=alert(1)>@x.dev')).not.toContain('<img src=x');
  });
});
