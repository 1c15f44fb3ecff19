import { describe, expect, vi } from 'vitest';
import { test } from './fixtures';

const publicUrl = 'https://docs.example.test';
test.override({
  serverEnvironment: { LOG_LEVEL: 'silent', PUBLIC_URL: publicUrl, ALLOW_DEVELOPMENT_SIGN_IN: 'true' },
});

describe('over https, with the development IdP', () => {
  // Regression: behind the TLS-terminating proxy that any https PUBLIC_URL implies, oidc-provider built its endpoint
  // URLs from the plain-http request it saw, so discovery advertised http://... and openid-client refused them.
  test('developmentIdpAdvertisesItsEndpointsOnThePublicUrl', async ({ server }) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/dev-idp/.well-known/openid-configuration',
      headers: { host: 'docs.example.test' },
    });
    expect(response.statusCode).toBe(200);
    const discovery = response.json() as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${publicUrl}/dev-idp`);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
      expect(discovery[endpoint], endpoint).toMatch(new RegExp(`^${publicUrl}/dev-idp/`));
    }
  });

  // The same regression as the reader met it: "Login with Google" answered 503 "could not be reached".
  test('developmentSignInStartsBehindHttpsPublicUrl', async ({ server }) => {
    const realFetch = globalThis.fetch;
    // docs.example.test resolves nowhere: the server's calls to its own public URL are answered in process, over
    // plain http, as the TLS-terminating proxy in front of it would forward them.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.origin !== publicUrl) return realFetch(input, init);
      const answer = await server.app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { ...Object.fromEntries(request.headers), host: url.host },
      });
      return new Response(answer.body, {
        status: answer.statusCode,
        headers: { 'content-type': String(answer.headers['content-type']) },
      });
    });
    try {
      const response = await server.app.inject({ method: 'GET', url: '/auth/login?next=/faqs/' });
      expect(response.statusCode).toBe(303);
      expect([response.headers['set-cookie'] ?? []].flat().join('\n')).toMatch(/^__Host-acme_sign_in=/m);
    } finally {
      spy.mockRestore();
    }
  });
});
