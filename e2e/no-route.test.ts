import { describe, expect } from 'vitest';
import { test } from './fixtures';

/** Requests no route takes: a method a page or endpoint does not answer, an address in another spelling. */
describe('a request no route takes', () => {
  test.for([
    ['PUT', '/firestore-ttl?secret=abc'],
    ['DELETE', '/'],
    ['PATCH', '/api/search?q=x'],
    ['OPTIONS', '/api/threads'],
    ['PROPFIND', '/docs/'],
    ['POST', '/mcp/'],
    ['POST', '/MCP'],
  ] as const)(
    '%s %s is a 404 in the API shape that repeats nothing of the request',
    async ([method, url], { server, sessionCookie }) => {
      for (const headers of [{}, { cookie: sessionCookie }]) {
        const response = await server.app.inject({ method, url, headers });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({
          error: { code: 'not_found:route', message: 'Nothing at this address takes this request.' },
        });
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
      }
    },
  );

  test.for(['/oauth/token', '/oauth/register'])(
    'GET %s is a 405 in OAuth terms, signed in or not',
    async (url, { server, sessionCookie }) => {
      for (const headers of [{}, { cookie: sessionCookie }]) {
        const response = await server.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('POST');
        expect(response.json()).toEqual({ error: 'invalid_request', error_description: 'This endpoint takes POST.' });
      }
    },
  );
});
