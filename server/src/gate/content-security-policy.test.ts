import { createHash } from 'node:crypto';
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

  it('hashes a page read as bytes as the browser hashes its scripts: their UTF-8, non-ASCII text included', () => {
    const page = '<p>Café ☕</p><script>document.title = "Grüße · 東京 ☕"</script><script src="/x.js"></script>';
    const fromBytes = inlineScriptHashes([Buffer.from(page)]);
    expect(fromBytes).toEqual(inlineScriptHashes([page]));
    const body = 'document.title = "Grüße · 東京 ☕"';
    expect(fromBytes).toEqual([`'sha256-${createHash('sha256').update(Buffer.from(body, 'utf8')).digest('base64')}'`]);
  });
});
