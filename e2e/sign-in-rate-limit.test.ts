import { describe, expect } from 'vitest';
import { test } from './fixtures';

test.override({
  serverEnvironment: { SIGN_IN_REQUESTS_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'silent' },
});

describe('returns from the identity provider under their limit per address', () => {
  test('refuses the fourth in a minute from one address with the sign-in page, and nothing else', async ({
    server,
  }) => {
    const from = (address: string, path: string, init: RequestInit = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        ...init,
        headers: { 'x-forwarded-for': address, accept: 'text/html', ...(init.headers as Record<string, string>) },
        redirect: 'manual',
      });
    const callback = '/auth/callback?code=x&state=y';
    const statuses: number[] = [];
    for (let count = 0; count < 3; count += 1) statuses.push((await from('203.0.113.7', callback)).status);
    // No attempt cookie: each is refused as expired, but counted, since a script replaying callbacks sends one.
    expect(statuses).toEqual([400, 400, 400]);

    const refused = await from('203.0.113.7', callback);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await refused.text()).toContain('Too many sign-in attempts from this network');
    // The same network in IPv6 notation is the same address.
    expect((await from('::ffff:203.0.113.7', callback)).status).toBe(429);

    // Another address is not held back, and the limited one keeps everything but the callback.
    expect((await from('203.0.113.8', callback)).status).toBe(400);
    expect((await from('203.0.113.7', '/auth/login?next=/faqs/')).status).toBe(303);
    expect((await from('203.0.113.7', '/auth/assets/logo.svg')).status).toBe(200);
    const logout = await from('203.0.113.7', '/auth/logout', { method: 'POST', headers: { origin: server.baseUrl } });
    expect(logout.status).toBe(303);
    const me = await server.app.inject({ url: '/api/me', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(me.statusCode).toBe(401);
  });
});
