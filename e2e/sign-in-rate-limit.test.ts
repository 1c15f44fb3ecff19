import { describe, expect } from 'vitest';
import { test } from './fixtures';

test.override({
  serverEnvironment: { SIGN_IN_REQUESTS_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'silent' },
});

describe('sign-in requests under their limit per address', () => {
  test('refuses the fourth in a minute from one address with the sign-in page, and no other address', async ({
    server,
  }) => {
    const from = (address: string, path: string) =>
      fetch(`${server.baseUrl}${path}`, {
        headers: { 'x-forwarded-for': address, accept: 'text/html' },
        redirect: 'manual',
      });
    const statuses: number[] = [];
    for (let count = 0; count < 3; count += 1)
      statuses.push((await from('203.0.113.7', '/auth/login?next=/faqs/')).status);
    expect(statuses).toEqual([303, 303, 303]);

    const refused = await from('203.0.113.7', '/auth/login?next=/faqs/');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await refused.text()).toContain('Too many sign-in attempts from this network');
    // Coming back from the provider counts too: a script replaying callbacks is refused before any call out.
    expect((await from('203.0.113.7', '/auth/callback?code=x&state=y')).status).toBe(429);

    expect((await from('203.0.113.8', '/auth/login?next=/faqs/')).status).toBe(303);
    // Pages are not sign-in requests: a stranger still gets the sign-in page itself.
    expect((await from('203.0.113.7', '/faqs/')).status).toBe(401);
  });
});
