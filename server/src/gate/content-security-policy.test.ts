import { describe, expect, it } from 'vitest';
import { signInPageTemplate } from '../auth/sign-in-page.js';
import { contentSecurityPolicyDirectives, inlineScriptHashes } from './content-security-policy.js';

describe('the content security policy', () => {
  it('allows the sign-in page its one inline script (the section anchor) on every response', () => {
    const page = signInPageTemplate({ primaryDomains: ['acme.dev', 'acme.io'], developmentSignIn: true })(
      '/firestore-ttl',
    );
    const hashes = inlineScriptHashes([page]);
    expect(hashes).toHaveLength(1);
    expect(contentSecurityPolicyDirectives([]).scriptSrc).toEqual(expect.arrayContaining(hashes));
  });
});
