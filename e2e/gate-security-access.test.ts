import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { fetchPath, html, signedInSession, withSession } from './gate-security';

test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

describe('/api/me', () => {
  test.for<[string, string | undefined, number, Record<string, unknown>]>([
    ['signedOutGets401', undefined, 401, { state: 'signed-out', primaryDomains: ['acme.dev', 'acme.io'] }],
    ['allowedGets200', 'reader@acme.dev', 200, { state: 'allowed', email: 'reader@acme.dev' }],
    ['notAllowedGets403', 'x@gmail.com', 403, { state: 'not-allowed', email: 'x@gmail.com' }],
  ])('%s', async ([_name, email, status, body], { server }) => {
    const sessionId = email ? await signedInSession(server.baseUrl, email) : undefined;
    const response = await fetchPath(server.baseUrl, '/api/me', sessionId ? withSession(sessionId) : {});
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const json = await response.json();
    expect(json).toMatchObject({ ...body, primaryDomains: ['acme.dev', 'acme.io'] });
    if (!email) expect(json).toEqual(body);
  });
});

describe('access decisions end to end through the development IdP', () => {
  test.for<{ name: string; email: string; status: number; verified?: boolean; workspace?: boolean }>([
    { name: 'allowsAllowedDomain', email: 'reader@acme.dev', status: 200 },
    { name: 'allowsUpperCaseAllowedDomain', email: 'READER@ACME.IO', status: 200 },
    { name: 'allowsWhitelistedAddress', email: 'alex.partner@example.com', status: 200 },
    { name: 'rejectsAllowedDomainAsPrefixOfAttackerDomain', email: 'user@acme.dev.evil.com', status: 403 },
    { name: 'rejectsDomainSuffixWithoutAtBoundary', email: 'x@evilacme.dev', status: 403 },
    { name: 'rejectsSubdomainByDefault', email: 'x@sub.acme.dev', status: 403 },
    { name: 'rejectsPlusAddressingOnWhitelistedAddress', email: 'alex.partner+x@example.com', status: 403 },
    { name: 'rejectsUnverifiedEmail', email: 'reader@acme.dev', verified: false, status: 403 },
    { name: 'rejectsAccountWithoutWorkspaceClaim', email: 'reader@acme.dev', workspace: false, status: 403 },
  ])('$name: $email', async ({ email, verified, workspace, status }, { server }) => {
    const sessionId = await signedInSession(server.baseUrl, email, { verified, workspace });
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(status);
    const body = await response.text();
    if (status === 403) {
      expect(body).toContain(`signed in as <strong>${email}</strong>`);
      expect(body).not.toContain('/assets/js/');
    } else {
      expect(body).toContain('/assets/js/');
    }
  });

  test('markupInTheSignedInAddressIsEscapedOnTheGate', async ({ server }) => {
    const email = '<img/src=x/onerror=alert(1)>@evil.com';
    const sessionId = await signedInSession(server.baseUrl, email);
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toContain('signed in as <strong>&lt;img/src=x/onerror=alert(1)&gt;@evil.com</strong>');
    expect(body).not.toContain('<img/src=x');
  });
});
