import { describe, expect } from 'vitest';
import { test } from './fixtures';

test.override({ serverEnvironment: { SEARCH_REQUESTS_PER_MINUTE: '3' }, readerEmail: 'typist@acme.dev' });

describe('GET /api/search under its rate limit', () => {
  test('answers 429 with Retry-After past the per-reader limit', async ({ server, sessionCookie }) => {
    const headers = { cookie: sessionCookie };
    const statuses: number[] = [];
    for (let count = 0; count < 4; count += 1) {
      statuses.push((await server.app.inject({ method: 'GET', url: '/api/search?q=ttl', headers })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await server.app.inject({ method: 'GET', url: '/api/search?q=ttl', headers });
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'rate_limited:search' } });
  });
});
