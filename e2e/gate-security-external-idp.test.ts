import { describe, expect } from 'vitest';
import { newSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import { storeReaderSession } from '../server/test-support/reader-rows.js';
import { test as base } from './fixtures';
import { attemptCookie, cookieAttributes, html, sessionCookie } from './gate-security';
import { startServer } from './harness';

/** The handbook behind https, signing in with an external provider; the file's own server stands in for it. */
const test = base.extend('handbook', { scope: 'file' }, async ({ server: provider }, { onCleanup }) => {
  const handbook = await startServer({
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://docs.example.test',
    OIDC_ISSUER: `${provider.baseUrl}/dev-idp`,
    OIDC_CLIENT_ID: 'acme-handbook-development',
    OIDC_CLIENT_SECRET: 'not-needed-to-start-a-sign-in',
  });
  onCleanup(() => handbook.close());
  return handbook;
});
// A plain-http server stands in for the external provider: its development IdP answers discovery.
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

describe('over https, with an external OpenID provider', () => {
  test('sendsHsts', async ({ handbook }) => {
    const response = await handbook.app.inject({ method: 'GET', url: '/', headers: html });
    expect(response.statusCode).toBe(401);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  test('signInAttemptCookieIsHostPrefixedSecureHttpOnlyLax', async ({ handbook, server: provider }) => {
    const response = await handbook.app.inject({ method: 'GET', url: '/auth/login?next=/faqs/' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(new RegExp(`^${provider.baseUrl}/dev-idp/`));
    const cookies = [response.headers['set-cookie'] ?? []].flat();
    const header = cookies.find((cookie) => cookie.startsWith(`__Host-${attemptCookie}=`));
    expect(header, cookies.join('\n')).toBeDefined();
    const attributes = cookieAttributes(header ?? '');
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
  });

  test.for<[string, string, number]>([
    ['unprefixedSessionCookieIsIgnored', sessionCookie, 401],
    ['hostPrefixedSessionCookieIsHonoured', `__Host-${sessionCookie}`, 200],
  ])('%s', async ([_name, cookieName, status], { handbook }) => {
    const sessionId = newSessionId();
    await storeReaderSession(handbook.store.db, sessionId);
    const response = await handbook.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${cookieName}=${sessionCookieCodec(handbook.config.sessionSecret).valueOf(sessionId)}` },
    });
    expect(response.statusCode).toBe(status);
  });
});
