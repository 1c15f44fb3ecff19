import { describe, expect, it } from 'vitest';
import { contentSecurityPolicyDirectives, inlineScriptHashes } from '../gate/content-security-policy.js';
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

  it('carries its one inline script under the CSP every response gets', () => {
    const page = template('/firestore-ttl');
    const hashes = inlineScriptHashes([page]);
    expect(hashes).toHaveLength(1);
    expect(contentSecurityPolicyDirectives([]).scriptSrc).toEqual(expect.arrayContaining(hashes));
  });
});
