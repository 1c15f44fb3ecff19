import { describe, expect, it } from 'vitest';
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

  it('escapesReturnPathInLoginLink', () => {
    expect(template('/a"><script>alert(1)</script>')).not.toContain('<script>alert');
  });
});
